import ChatCore

/// A push the backend would send to a device: one per subscribed device of
/// the conversation's owner, for each message written by someone else.
public struct BackendPush: Sendable, Hashable {
    public var userId: String
    public var deviceId: String
    public var conversationId: String
    public var messageId: String
    /// The notification's text: the message's preview.
    public var preview: String
    public var sentAt: Instant

    public init(userId: String, deviceId: String, conversationId: String, messageId: String, preview: String, sentAt: Instant) {
        self.userId = userId
        self.deviceId = deviceId
        self.conversationId = conversationId
        self.messageId = messageId
        self.preview = preview
        self.sentAt = sentAt
    }
}
