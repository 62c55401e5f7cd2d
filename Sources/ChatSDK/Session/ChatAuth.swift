/// How `authorize(user:auth:)` proves the user (A12). Every field is
/// optional; with none, the client connects with the user id alone, which
/// the app's settings must allow.
///
/// ```swift
/// // The app's backend issued a session token and signed the user id.
/// let auth = ChatAuth(token: sessionToken, scheme: "session", signature: signature)
/// await client.authorize(user: ChatUser(id: "u-7f3a9c"), auth: auth)
/// ```
public struct ChatAuth: Sendable, Hashable {
    /// A token the app's backend issued for the user: an access token (it
    /// does not expire, it can be revoked) or a session token (it expires;
    /// the `SessionDelegate` renews it), as `scheme` says.
    public var token: String?
    /// What `token` is: `"access"` (the default) or `"session"`, in any
    /// case. Any other scheme is refused: `authorize` sends nothing.
    public var scheme: String?
    /// Header fields (cookies included) sent with each of the user's
    /// requests, and with the realtime connection, for a gateway of the
    /// app's in front of the chat server. A name must be an HTTP token and
    /// not one the SDK sets itself (`Authorization`, `X-Api-Key`,
    /// `X-Device-Id`, `X-App-Secret`, `Content-Type`, `Content-Length`,
    /// `Host`, `Connection`, `Upgrade`, `Sec-WebSocket-…`); a value has no
    /// line break. Otherwise `authorize` sends nothing.
    public var headers: [String: String]
    /// Identity verification: the app's backend's signature of the user id
    /// (the HMAC-SHA256 of its UTF-8 bytes under the app's secret, 64 hex
    /// digits). The server refuses a wrong one (`invalidSignature`); a
    /// right one lets a user id alone connect where the app does not allow
    /// user ids alone.
    public var signature: String?

    public init(token: String? = nil, scheme: String? = nil, headers: [String: String] = [:], signature: String? = nil) {
        self.token = token
        self.scheme = scheme
        self.headers = headers
        self.signature = signature
    }

    /// What the token is.
    enum TokenKind: Sendable, Hashable {
        case access, session
    }

    /// The token's kind, nil for a scheme this SDK does not know.
    var tokenKind: TokenKind? {
        switch scheme?.lowercased() {
        case nil, "access": .access
        case "session": .session
        default: nil
        }
    }

    /// Why this auth cannot be used, in one line; nil when it can.
    var problem: String? {
        if tokenKind == nil {
            return
                "ChatAuth.scheme \(String(scheme!.prefix(40)).debugDescription) is not one this SDK knows (access or session): nothing was sent"
        }
        for name in headers.keys.sorted() {
            guard !name.isEmpty, name.utf8.allSatisfy(Self.isTokenCharacter) else {
                return "ChatAuth.headers: \(String(name.prefix(40)).debugDescription) is not a header field name: nothing was sent"
            }
            if Self.reserved.contains(name.lowercased()) || name.lowercased().hasPrefix("sec-websocket-") {
                return "ChatAuth.headers: \(name) is set by the SDK itself: nothing was sent"
            }
            if headers[name]!.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) {
                return "ChatAuth.headers: the value of \(name) has a line break: nothing was sent"
            }
        }
        return nil
    }

    /// Header fields the SDK sets itself, lowercased.
    private static let reserved: Set<String> = [
        "authorization", "x-api-key", "x-device-id", "x-app-secret", "content-type", "content-length", "host", "connection",
        "upgrade", "transfer-encoding",
    ]

    /// RFC 9110's `tchar`.
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
