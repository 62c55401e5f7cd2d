import Foundation

/// One call of the public API as the flight recorder keeps it (issue 30):
/// the call and its arguments as values, from the call site to the file's
/// `step.call` column (JSON) and to whoever reads it (the workbench's
/// replay and export), never parsed back from text. ``text`` is its one
/// rendering for people (`step.input`: `sendMessage(.text("hi"), in: "c-1")`).
///
/// What is not kept in clear is not here either: a secret argument (a JWT,
/// an app-issued token, a header's value, a signature) is its placeholder
/// (`<secret#2>`), and a message's text is as the settings keep it (its
/// summary when redacted).
package enum AppCall: RecordedValue, Sendable, Hashable {
    /// The client's creation, with what it was configured with. `cacheMode`
    /// and `content` are the raw values of `ChatClient.CacheMode` and
    /// `ChatClient.Diagnostics.Content` (public enums without `Codable`).
    case client(cacheMode: String, autoResend: Bool, pageSize: Int, content: String)
    case setCurrentUser(userId: String)
    case clearCurrentUser
    case deauthorizeUser
    case loginUser(jwt: String)
    case loginAnonymous
    case connect(userId: String, credential: Credential)
    case disconnect
    case authorize(user: String, auth: Auth?)
    case logout
    case prefill(message: String)
    case registerPushToken(token: String)
    case unregisterPushToken
    case startConversation(id: String?, title: String?)
    case sendMessage(content: Content, replyingTo: String?, conversation: String)
    case retrySending(itemId: String)
    case setIsTyping(isTyping: Bool, conversation: String)
    case networkReachabilityChanged(isReachable: Bool)
    case applicationDidEnterBackground
    case applicationWillEnterForeground
    case shutdown
    case watchConversations
    case watchConversation(id: String)
    case watchItems(conversation: String)
    /// `w1.cancel()`: `watcher` is the client's id of it (from 0), named as
    /// ``FlightRecorder/watcherName(_:)`` names it.
    case cancelWatcher(watcher: Int)
    case loadMore(watcher: Int)

    /// How `connect(userId:…)` was called.
    package enum Credential: Codable, Sendable, Hashable {
        case userId
        case accessToken(String)
        case sessionToken(String)

        // A case's one value is keyed by the case's name (``RecordedValue``).
        enum AccessTokenCodingKeys: String, CodingKey { case _0 = "accessToken" }
        enum SessionTokenCodingKeys: String, CodingKey { case _0 = "sessionToken" }
    }

    /// A `ChatAuth`, its secrets as placeholders.
    package struct Auth: Codable, Sendable, Hashable {
        package var token: String?
        package var scheme: String?
        /// By name; rendered in order of name.
        package var headers: [String: String]
        package var signature: String?

        package init(token: String?, scheme: String?, headers: [String: String], signature: String?) {
            self.token = token
            self.scheme = scheme
            self.headers = headers
            self.signature = signature
        }
    }

    /// A message's content: its text as the settings keep it, or an
    /// attachment's kind (`MessageContent.AttachmentKind`'s raw value), type
    /// and size.
    package enum Content: Codable, Sendable, Hashable {
        case text(String)
        case attachment(kind: String, mime: String, bytes: Int64)

        enum TextCodingKeys: String, CodingKey { case _0 = "text" }
    }

    /// The method's name, as the `call: NAME returned …` event names it.
    package var name: String {
        switch self {
        case .client: "ChatClient"
        case .setCurrentUser: "setCurrentUser"
        case .clearCurrentUser: "clearCurrentUser"
        case .deauthorizeUser: "deauthorizeUser"
        case .loginUser: "loginUser"
        case .loginAnonymous: "loginAnonymous"
        case .connect: "connect"
        case .disconnect: "disconnect"
        case .authorize: "authorize"
        case .logout: "logout"
        case .prefill: "prefill"
        case .registerPushToken: "registerPushToken"
        case .unregisterPushToken: "unregisterPushToken"
        case .startConversation: "startConversation"
        case .sendMessage: "sendMessage"
        case .retrySending: "retrySending"
        case .setIsTyping: "setIsTyping"
        case .networkReachabilityChanged: "networkReachabilityChanged"
        case .applicationDidEnterBackground: "applicationDidEnterBackground"
        case .applicationWillEnterForeground: "applicationWillEnterForeground"
        case .shutdown: "shutdown"
        case .watchConversations: "watchConversations"
        case .watchConversation: "watchConversation"
        case .watchItems: "watchItems"
        case .cancelWatcher: "cancel"
        case .loadMore: "loadMore"
        }
    }

    /// The call as the app wrote it, for people (`step.input`). Texts are
    /// written between quotes as they are, unescaped: this text is not
    /// meant to be read back (the JSON is).
    package var text: String {
        switch self {
        case .client(let cacheMode, let autoResend, let pageSize, let content):
            "ChatClient(configuration: cacheMode: .\(cacheMode), autoResend: \(autoResend), pageSize: \(pageSize), content: .\(content))"
        case .setCurrentUser(let userId): "setCurrentUser(userId: \(Self.quoted(userId)))"
        case .clearCurrentUser, .deauthorizeUser, .loginAnonymous, .disconnect, .logout, .unregisterPushToken,
            .applicationDidEnterBackground, .applicationWillEnterForeground, .shutdown, .watchConversations:
            "\(name)()"
        case .loginUser(let jwt): "loginUser(jwt: \(Self.quoted(jwt)))"
        case .connect(let userId, .userId): "connect(userId: \(Self.quoted(userId)))"
        case .connect(let userId, .accessToken(let token)): "connect(userId: \(Self.quoted(userId)), accessToken: \(Self.quoted(token)))"
        case .connect(let userId, .sessionToken(let token)): "connect(userId: \(Self.quoted(userId)), sessionToken: \(Self.quoted(token)))"
        case .authorize(let user, let auth): "authorize(user: \(Self.quoted(user)), auth: \(auth?.text ?? "nil"))"
        case .prefill(let message): "prefill(message: \(Self.quoted(message)))"
        case .registerPushToken(let token): "registerPushToken(\(Self.quoted(token)))"
        case .startConversation(let id, let title):
            "startConversation(id: \(id.map(Self.quoted) ?? "nil"), title: \(title.map(Self.quoted) ?? "nil"))"
        case .sendMessage(let content, let replyingTo, let conversation):
            "sendMessage(\(content.text)\(replyingTo.map { ", replyingTo: \(Self.quoted($0))" } ?? ""), in: \(Self.quoted(conversation)))"
        case .retrySending(let itemId): "retrySending(itemId: \(Self.quoted(itemId)))"
        case .setIsTyping(let isTyping, let conversation): "setIsTyping(\(isTyping), in: \(Self.quoted(conversation)))"
        case .networkReachabilityChanged(let reachable): "networkReachabilityChanged(\(reachable))"
        case .watchConversation(let id): "watchConversation(withId: \(Self.quoted(id)))"
        case .watchItems(let conversation): "watchItems(ofConversationWithId: \(Self.quoted(conversation)))"
        case .cancelWatcher(let id): "\(FlightRecorder.watcherName(id)).cancel()"
        case .loadMore(let id): "\(FlightRecorder.watcherName(id)).loadMore()"
        }
    }

    static func quoted(_ text: String) -> String { "\"\(text)\"" }
}

extension AppCall.Auth {
    /// `ChatAuth(token: "<secret#2>", scheme: "access", headers: ["X-Tenant": "<secret#3>"], signature: "<secret#4>")`.
    var text: String {
        var parts: [String] = []
        if let token { parts.append("token: \(AppCall.quoted(token))") }
        if let scheme { parts.append("scheme: \(AppCall.quoted(scheme))") }
        if !headers.isEmpty {
            let fields = headers.sorted { $0.key < $1.key }.map { "\(AppCall.quoted($0.key)): \(AppCall.quoted($0.value))" }
            parts.append("headers: [\(fields.joined(separator: ", "))]")
        }
        if let signature { parts.append("signature: \(AppCall.quoted(signature))") }
        return "ChatAuth(\(parts.joined(separator: ", ")))"
    }
}

extension AppCall.Content {
    /// A message's content as recorded: its text as `text` keeps it (in
    /// clear, or its summary), or an attachment's kind, type and size.
    init(_ content: MessageContent, text: (String) -> String) {
        switch content {
        case .text(let body): self = .text(text(body))
        case .attachment(let kind, let mime, let size, _): self = .attachment(kind: kind.rawValue, mime: mime, bytes: size)
        }
    }

    /// `.text("hi")`, `.attachment(.image, "image/png", 2048 bytes)`.
    var text: String {
        switch self {
        case .text(let text): ".text(\(AppCall.quoted(text)))"
        case .attachment(let kind, let mime, let bytes): ".attachment(.\(kind), \(AppCall.quoted(mime)), \(bytes) bytes)"
        }
    }
}

/// A value the flight recorder keeps as JSON beside its text (``AppCall``,
/// ``AppEvent``): keys sorted, so that one value always makes the same bytes.
///
/// Every value in it is under a key that names it: a case's fields by
/// their labels, and a case's one unlabelled value by the case's name
/// (`{"text":{"text":"hi"}}`, its `…CodingKeys`), where Swift's own
/// coding keys it `_0`.
package protocol RecordedValue: Codable {}

extension RecordedValue {
    /// The value as the recording keeps it.
    package var json: String? {
        TapeCoding.encode(self).map { String(decoding: $0, as: UTF8.self) }
    }

    /// A value read back; nil when it is not one this version knows.
    package init?(json: String) {
        let data = Data(json.utf8)
        if let value = TapeCoding.decode(Self.self, from: data) {
            self = value
        } else if let legacy = Self.legacy(data), let value = TapeCoding.decode(Self.self, from: legacy) {
            self = value
        } else {
            return nil
        }
    }

    /// LEGACY, for values recorded by earlier builds, made as this build
    /// writes them. Nil when there is nothing in it to remake.
    ///
    /// - Keys by position (schema v6 and v7 as the first builds wrote
    ///   them): `{"text":{"_0":"hi"}}`, the one value of the case `text`
    ///   keyed `_0`, becomes `{"text":{"text":"hi"}}` (``LegacyPositionalKeys``).
    /// - A message's state as `SendState` renders it (the first v7 builds,
    ///   before the error's code had a key of its own): `"state":
    ///   "failed(offline)"` becomes `"state":"failed","error":"offline"`
    ///   (``SendState/Kind/legacy(_:)``).
    static func legacy(_ data: Data) -> Data? {
        LegacyPositionalKeys.remade(data) { object in
            guard let text = object["state"] as? String, object["error"] == nil, let state = SendState.Kind.legacy(text),
                let error = state.error
            else { return false }
            object["state"] = state.kind.rawValue
            object["error"] = error
            return true
        }
    }
}
