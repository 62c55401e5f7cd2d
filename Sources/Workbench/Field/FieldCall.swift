/// One call of ChatSDK's public API as an app's flight recorder writes it
/// (`sendMessage(.text("hi"), in: "c-1")`, `w1.cancel()`), read back: what a
/// field recording's export turns into a workbench command and its replay
/// makes again on a fresh client (issue 27 §3, §4).
///
/// The recorder writes texts between quotes without escaping them, so each
/// call is read by a pattern anchored at both ends: a text is everything
/// between its call's fixed parts, quotes in it included.
package enum FieldCall: Sendable, Hashable {
    /// The client's creation, with what it was configured with.
    case client(cacheMode: String, autoResend: Bool, pageSize: Int)
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

    /// Reads one recorded call; nil for a line that is no call at all.
    package init?(_ text: String) {
        if let m = text.wholeMatch(of: /ChatClient\(configuration: cacheMode: \.(\w+), autoResend: (true|false), pageSize: (\d+).*\)/) {
            self = .client(cacheMode: String(m.1), autoResend: m.2 == "true", pageSize: Int(m.3) ?? 20)
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
        } else if let simple = Self.simple[text] {
            self = simple
        } else if let m = text.wholeMatch(of: /([A-Za-z]+)\(.*\)/) {
            self = .unsupported(String(m.1))
        } else {
            return nil
        }
    }

    private static let simple: [String: FieldCall] = [
        "applicationDidEnterBackground()": .background, "applicationWillEnterForeground()": .foreground,
        "shutdown()": .shutdown, "disconnect()": .disconnect, "loginAnonymous()": .loginAnonymous,
    ]
}
