import ChatSDK
import Foundation

/// One call of ChatSDK's public API as an app's flight recorder recorded
/// it, in the workbench's terms: what a field recording's export turns
/// into a workbench command and its replay makes again on a fresh client
/// (issue 27 §3, §4). Made from the recorded value (``AppCall``, the
/// step's `call` column); only a recording made before that column has its
/// calls read from their text (``init(legacyText:)``).
package enum FieldCall: Sendable, Hashable {
    /// The client's creation, with what it was configured with: its cache
    /// mode, and whether its recorder kept messages' texts redacted
    /// (`ChatClient.Diagnostics.Content.redacted`).
    case client(cacheMode: ChatClient.CacheMode, autoResend: Bool, pageSize: Int, redacted: Bool)
    case setCurrentUser(String)
    case clearCurrentUser
    case startConversation(id: String?, title: String?)
    case watchConversations
    case watchConversation(String)
    case watchItems(String)
    case sendText(String, conversation: String)
    case sendAttachment(kind: String, mime: String, bytes: Int, conversation: String)
    case retry(String)
    case typing(Bool, conversation: String)
    case reachability(Bool)
    case background
    case foreground
    case shutdown
    case disconnect
    case loginAnonymous
    /// `w1.cancel()`: the watcher's name as the recorder gives it.
    case cancel(watcher: String)
    case loadMore(watcher: String)
    /// A call this version reads but cannot make again (its secrets are
    /// placeholders, or the workbench has no verb for it): its name.
    case unsupported(String)

    /// The call of a recorded step: its recorded value, or, for a step
    /// recorded before there was one (schema v5 and older), its text.
    /// Nil for a step that holds no call this version knows.
    package init?(_ step: RecordedStep) {
        guard let json = step.callJSON else {
            self.init(legacyText: step.input)
            return
        }
        if let call = AppCall(json: json) {
            self.init(call)
        } else if let name = Self.name(ofUnknown: json) {
            // A call a newer SDK knows: its case's name is the JSON's one key.
            self = .unsupported(name)
        } else {
            return nil
        }
    }

    /// The workbench's reading of a recorded call.
    package init(_ call: AppCall) {
        switch call {
        case .client(let cacheMode, let autoResend, let pageSize, let content):
            self = .client(
                cacheMode: Self.cacheMode(cacheMode), autoResend: autoResend, pageSize: pageSize,
                redacted: ChatClient.Diagnostics.Content(rawValue: content) == .redacted)
        case .setCurrentUser(let id): self = .setCurrentUser(id)
        case .clearCurrentUser, .deauthorizeUser: self = .clearCurrentUser
        case .startConversation(let id, let title): self = .startConversation(id: id, title: title)
        case .watchConversations: self = .watchConversations
        case .watchConversation(let id): self = .watchConversation(id)
        case .watchItems(let id): self = .watchItems(id)
        case .sendMessage(.text(let text), nil, let conversation): self = .sendText(text, conversation: conversation)
        case .sendMessage(.attachment(let kind, let mime, let bytes), nil, let conversation):
            self = .sendAttachment(kind: kind, mime: mime, bytes: Int(bytes), conversation: conversation)
        case .retrySending(let id): self = .retry(id)
        case .setIsTyping(let on, let conversation): self = .typing(on, conversation: conversation)
        case .networkReachabilityChanged(let reachable): self = .reachability(reachable)
        case .applicationDidEnterBackground: self = .background
        case .applicationWillEnterForeground: self = .foreground
        case .shutdown: self = .shutdown
        case .disconnect: self = .disconnect
        case .loginAnonymous: self = .loginAnonymous
        case .cancelWatcher(let id): self = .cancel(watcher: FlightRecorder.watcherName(id))
        case .loadMore(let id): self = .loadMore(watcher: FlightRecorder.watcherName(id))
        // A reply (the workbench's `send` has no `replyingTo`), and calls
        // whose arguments are placeholders or that have no verb.
        case .sendMessage, .loginUser, .connect, .authorize, .logout, .prefill, .registerPushToken, .unregisterPushToken:
            self = .unsupported(call.name)
        }
    }

    /// Whether the call returns the message (`sendMessage`) or the
    /// conversation (`startConversation`) that later calls name by its id.
    package var returnsWhatTheAppNames: Bool {
        switch self {
        case .sendText, .sendAttachment, .startConversation: true
        default: false
        }
    }

    /// A recorded cache mode. One this version does not know (a newer
    /// SDK's) is `memory`, as the replay has always run it: what a client
    /// keeps on disk is not on the tape.
    static func cacheMode(_ rawValue: String) -> ChatClient.CacheMode {
        ChatClient.CacheMode(rawValue: rawValue) ?? .memory
    }

    private static func name(ofUnknown json: String) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], object.count == 1 else {
            return nil
        }
        return object.keys.first
    }
}

// MARK: Recordings made before the `call` column (schema v5 and older)

extension FieldCall {
    /// LEGACY, for files recorded before schema v6 only (such as
    /// examples/field/support-ticket.sqlite): reads a call back from the
    /// text the recorder wrote in `step.input`
    /// (`sendMessage(.text("hi"), in: "c-1")`, `w1.cancel()`). That text
    /// has its texts between quotes unescaped, so each call is read by a
    /// pattern anchored at both ends (a text is everything between its
    /// call's fixed parts, quotes in it included); a text with a line break,
    /// or a conversation id with a quote, cannot be read this way. Never
    /// used for a step that has its value.
    package init?(legacyText text: String) {
        if let m = text.wholeMatch(of: /ChatClient\(configuration: cacheMode: \.(\w+), autoResend: (true|false), pageSize: (\d+).*\)/) {
            self = .client(
                cacheMode: Self.cacheMode(String(m.1)), autoResend: m.2 == "true", pageSize: Int(m.3) ?? 20,
                redacted: text.contains("content: .redacted"))
        } else if let m = text.wholeMatch(of: /setCurrentUser\(userId: "(.*)"\)/) {
            self = .setCurrentUser(String(m.1))
        } else if text == "clearCurrentUser()" || text == "deauthorizeUser()" {
            self = .clearCurrentUser
        } else if let m = text.wholeMatch(of: /startConversation\(id: (nil|"(.*)"), title: (nil|"(.*)")\)/) {
            self = .startConversation(id: m.2.map(String.init), title: m.4.map(String.init))
        } else if text == "watchConversations()" {
            self = .watchConversations
        } else if let m = text.wholeMatch(of: /watchConversation\(withId: "(.*)"\)/) {
            self = .watchConversation(String(m.1))
        } else if let m = text.wholeMatch(of: /watchItems\(ofConversationWithId: "(.*)"\)/) {
            self = .watchItems(String(m.1))
        } else if let m = text.wholeMatch(of: /sendMessage\(\.text\("(.*)"\), in: "([^"]*)"\)/) {
            self = .sendText(String(m.1), conversation: String(m.2))
        } else if let m = text.wholeMatch(of: /sendMessage\(\.attachment\(\.(\w+), "([^"]*)", (\d+) bytes\), in: "([^"]*)"\)/) {
            self = .sendAttachment(kind: String(m.1), mime: String(m.2), bytes: Int(m.3) ?? 0, conversation: String(m.4))
        } else if let m = text.wholeMatch(of: /retrySending\(itemId: "(.*)"\)/) {
            self = .retry(String(m.1))
        } else if let m = text.wholeMatch(of: /setIsTyping\((true|false), in: "(.*)"\)/) {
            self = .typing(m.1 == "true", conversation: String(m.2))
        } else if let m = text.wholeMatch(of: /networkReachabilityChanged\((true|false)\)/) {
            self = .reachability(m.1 == "true")
        } else if let m = text.wholeMatch(of: /(w\d+)\.(cancel|loadMore)\(\)/) {
            self = m.2 == "cancel" ? .cancel(watcher: String(m.1)) : .loadMore(watcher: String(m.1))
        } else if let simple = Self.legacySimple[text] {
            self = simple
        } else if let m = text.wholeMatch(of: /([A-Za-z]+)\(.*\)/) {
            self = .unsupported(String(m.1))
        } else {
            return nil
        }
    }

    private static let legacySimple: [String: FieldCall] = [
        "applicationDidEnterBackground()": .background, "applicationWillEnterForeground()": .foreground,
        "shutdown()": .shutdown, "disconnect()": .disconnect, "loginAnonymous()": .loginAnonymous,
    ]
}
