import ChatCore
import ChatSDK

/// What the SDK says, taken into the session's objects: message and
/// conversation objects made on first sight, and their latest views.
extension SessionObjects {
    /// Updates message objects from what a watcher shows. States are not
    /// taken from here: a watcher's emission can be older than the SDK's
    /// last word on a message; `messageStateChanged` alone says them. A
    /// message's record is its own client's view (the client that sent or
    /// first saw it): another client's watcher shows what that client knows
    /// and leaves the record alone (issue 29: a tablet showed the phone's
    /// local `sending`). Returns each message's handle and its label as
    /// `client` sees it.
    @discardableResult
    func absorb(_ messages: [Message], client: ClientObject) -> [(handle: String, label: String)] {
        // Messages come newest first; new ones get handles oldest first,
        // in the order they were written.
        for message in messages.reversed() where handle(forID: message.id) == nil {
            _ = messageObject(for: message.id, conversationId: message.conversationId, client: client)
        }
        return messages.map { message in
            let object = messageObject(for: message.id, conversationId: message.conversationId, client: client)
            let view = view(of: message, as: object, seenBy: client)
            if object.client === client || object.latest == nil { object.latest = view }
            return (object.handle, object.label(of: view))
        }
    }

    /// A message as `client` sees it: its owner's last reported state
    /// stands over an older emission; another client's view is its own.
    func view(of message: Message, as object: MessageObject, seenBy client: ClientObject) -> SeenMessage {
        var message = message
        if object.client === client, let state = object.reportedState { message.state = state }
        return SeenMessage(message)
    }

    /// A state the SDK says one of the user's messages entered: its
    /// history and the step's event.
    func recordState(of message: Message, client: ClientObject, at time: Instant, log: EventLog) {
        let object = messageObject(for: message.id, conversationId: message.conversationId, client: client)
        object.latest = SeenMessage(message)
        object.reportedState = message.state
        object.appendHistory(message.state, at: time)
        log.append(time, .messageState(message: object.handle, state: message.state))
    }

    func absorb(_ conversations: [Conversation], client: ClientObject) -> [ConversationObject] {
        conversations.map { conversation in
            let object = conversationObject(for: conversation.id, client: client)
            object.latest = conversation
            return object
        }
    }
}
