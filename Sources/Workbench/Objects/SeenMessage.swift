import ChatCore
import ChatSDK

/// What the session last saw of a message: the parts of an SDK `Message`
/// that inspection and emission lines show (its id and conversation are
/// the handle's own).
struct SeenMessage: Hashable {
    var author: MessageAuthor
    var content: MessageContent
    var replyTo: String?
    var state: SendState
    var isReadByProvider: Bool
    /// Its sequence number in the conversation, once the server gave one.
    var seq: Int64?

    init(author: MessageAuthor, content: MessageContent, replyTo: String?, state: SendState, isReadByProvider: Bool, seq: Int64? = nil) {
        self.author = author
        self.content = content
        self.replyTo = replyTo
        self.state = state
        self.isReadByProvider = isReadByProvider
        self.seq = seq
    }

    init(_ message: Message) {
        self.init(
            author: message.author, content: message.content, replyTo: message.replyTo, state: message.state,
            isReadByProvider: message.isReadByProvider, seq: message.seq)
    }

    /// A message the other side wrote, as the server stored it (`agent say`):
    /// the workbench made it, so it knows it without asking the client.
    init(_ wire: WireMessage) {
        self.init(
            author: MessageAuthor(wire.author), content: MessageContent(wire.content), replyTo: wire.replyTo, state: .sent,
            isReadByProvider: false, seq: wire.seq)
    }
}
