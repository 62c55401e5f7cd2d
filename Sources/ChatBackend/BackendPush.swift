import ChatCore

/// A push the backend would send to a device: one per subscribed device of
/// the conversation's owner, for each message written by someone else.
package struct BackendPush: Sendable, Hashable {
    package var userId: String
    package var deviceId: String
    /// The device's push token the push went to (C4); nil when the device registered none.
    package var pushToken: String?
    package var conversationId: String
    package var messageId: String
    /// The notification's text: the message's preview.
    package var preview: String
    package var sentAt: Instant

    package init(
        userId: String, deviceId: String, pushToken: String? = nil, conversationId: String, messageId: String, preview: String,
        sentAt: Instant
    ) {
        self.userId = userId
        self.deviceId = deviceId
        self.pushToken = pushToken
        self.conversationId = conversationId
        self.messageId = messageId
        self.preview = preview
        self.sentAt = sentAt
    }
}
