internal import ChatCore

/// The ids the server gave conversations the app named itself.
///
/// The app chooses a conversation's id when it creates one; on the server
/// ids are global. When another user already holds that id, the server
/// creates the conversation under an id it mints (issue 13, item 10), as
/// Nabla's SDK maps a local conversation id to a remote one. The app keeps
/// the id it chose: requests leave with the server's id and answers and
/// events come back with the app's.
struct ConversationAliases: Sendable, Hashable {
    /// local → server
    private(set) var serverIds: [String: String]
    /// server → local
    private var localIds: [String: String]

    init(_ serverIds: [String: String] = [:]) {
        self.serverIds = serverIds
        localIds = Dictionary(serverIds.map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }

    var isEmpty: Bool { serverIds.isEmpty }

    func serverId(_ localId: String) -> String { serverIds[localId] ?? localId }
    func localId(_ serverId: String) -> String { localIds[serverId] ?? serverId }

    /// The new pair `answer` reveals: a send (as the app asked for it) that
    /// created a conversation the server put under another id.
    func minted(by request: WireRequest, answer: WireResponse) -> (localId: String, serverId: String)? {
        guard case .sendMessage(let asked, _?, _) = request, case .sent(let conversation, _) = answer,
            conversation.id != serverId(asked)
        else { return nil }
        return (asked, conversation.id)
    }

    mutating func add(localId: String, serverId: String) {
        serverIds[localId] = serverId
        localIds[serverId] = localId
    }

    // MARK: Translation

    /// `request` with the server's ids (the app's ids arrive).
    func outgoing(_ request: WireRequest) -> WireRequest {
        guard !isEmpty else { return request }
        switch request {
        case .getConversation(let id): return .getConversation(id: serverId(id))
        case .listMessages(let id, let cursor, let limit): return .listMessages(conversationId: serverId(id), cursor: cursor, limit: limit)
        case .messagesSince(let id, let after, let limit):
            return .messagesSince(conversationId: serverId(id), afterSeq: after, limit: limit)
        case .sendMessage(let id, let create, let message):
            return .sendMessage(conversationId: serverId(id), createConversation: create, message: message)
        case .setTyping(let id, let isTyping): return .setTyping(conversationId: serverId(id), isTyping: isTyping)
        default: return request
        }
    }

    /// `response` with the app's ids.
    func incoming(_ response: WireResponse) -> WireResponse {
        guard !isEmpty else { return response }
        switch response {
        case .conversations(let page): return .conversations(WirePage(elements: page.elements.map(local), nextCursor: page.nextCursor))
        case .conversation(let conversation): return .conversation(local(conversation))
        case .messages(let page): return .messages(WirePage(elements: page.elements.map(local), nextCursor: page.nextCursor))
        case .sent(let conversation, let message): return .sent(conversation: local(conversation), message: local(message))
        case .session(let tokens, let user, let merged):
            return .session(tokens: tokens, user: user, mergedConversationIds: merged.map(localId))
        default: return response
        }
    }

    /// `event` with the app's ids.
    func incoming(_ event: WireEvent) -> WireEvent {
        guard !isEmpty else { return event }
        switch event.kind {
        case .messageCreated(let message): return WireEvent(userSeq: event.userSeq, kind: .messageCreated(local(message)))
        case .conversationUpdated(let conversation):
            return WireEvent(userSeq: event.userSeq, kind: .conversationUpdated(local(conversation)))
        case .typing(let id, let name, let until):
            return WireEvent(userSeq: event.userSeq, kind: .typing(conversationId: localId(id), providerName: name, until: until))
        }
    }

    private func local(_ conversation: WireConversation) -> WireConversation {
        var conversation = conversation
        conversation.id = localId(conversation.id)
        return conversation
    }

    private func local(_ message: WireMessage) -> WireMessage {
        var message = message
        message.conversationId = localId(message.conversationId)
        return message
    }
}
