/// A request from the SDK to the backend. Every request except `refresh`
/// carries an access token in `WireEnvelope.accessToken`.
public enum WireRequest: Codable, Sendable, Hashable {
    /// Exchange a refresh token for a new token pair.
    case refresh(refreshToken: String)
    /// Conversations of the current user, most recently updated first.
    case listConversations(cursor: String?, limit: Int)
    case getConversation(id: String)
    /// Messages of a conversation, newest first.
    case listMessages(conversationId: String, cursor: String?, limit: Int)
    /// Messages with `seq > afterSeq`, oldest first (catch-up after a cut).
    case messagesSince(conversationId: String, afterSeq: Int64, limit: Int)
    /// Send a message; when `createConversation` is set and the conversation
    /// does not exist yet, it is created first (local-first conversations).
    /// Idempotent on `message.id` and on the conversation id.
    case sendMessage(conversationId: String, createConversation: NewConversation?, message: NewMessage)
    case setTyping(conversationId: String, isTyping: Bool)

    public var name: String {
        switch self {
        case .refresh: "refresh"
        case .listConversations: "listConversations"
        case .getConversation: "getConversation"
        case .listMessages: "listMessages"
        case .messagesSince: "messagesSince"
        case .sendMessage: "sendMessage"
        case .setTyping: "setTyping"
        }
    }
}

public struct NewConversation: Codable, Sendable, Hashable {
    public var title: String?
    public init(title: String?) { self.title = title }
}

public struct NewMessage: Codable, Sendable, Hashable {
    public var id: String
    public var content: WireContent
    public var replyTo: String?
    public init(id: String, content: WireContent, replyTo: String?) {
        self.id = id
        self.content = content
        self.replyTo = replyTo
    }
}

/// What travels with every request.
public struct WireEnvelope: Codable, Sendable, Hashable {
    public var apiKey: String
    public var accessToken: String?
    public var deviceId: String
    public var request: WireRequest

    public init(apiKey: String, accessToken: String?, deviceId: String, request: WireRequest) {
        self.apiKey = apiKey
        self.accessToken = accessToken
        self.deviceId = deviceId
        self.request = request
    }
}

/// The successful answer to a request.
public enum WireResponse: Codable, Sendable, Hashable {
    case tokens(TokenPair)
    case conversations(WirePage<WireConversation>)
    case conversation(WireConversation)
    case messages(WirePage<WireMessage>)
    case sent(conversation: WireConversation, message: WireMessage)
    case ok
}

/// A pushed realtime event. `userSeq` increases by one per event for a user,
/// so a client that reconnects asks for everything after the last it saw.
public struct WireEvent: Codable, Sendable, Hashable {
    public var userSeq: Int64
    public var kind: Kind

    public init(userSeq: Int64, kind: Kind) {
        self.userSeq = userSeq
        self.kind = kind
    }

    public enum Kind: Codable, Sendable, Hashable {
        case messageCreated(WireMessage)
        case conversationUpdated(WireConversation)
        case typing(conversationId: String, providerName: String, until: Instant?)
    }
}
