/// A conversation as the device knows it.
public struct Conversation: Sendable, Hashable, Identifiable {
    public let id: String
    public var title: String?
    /// True while the conversation exists only on this device (D4).
    public var isLocal: Bool
    public var createdAt: Instant
    public var updatedAt: Instant
    /// Messages the server holds, plus those still on their way.
    public var messageCount: Int
    public var lastMessagePreview: String?
    /// Whether a provider is typing (D9); expires on its own.
    public var providerTyping: Bool
    /// Text prefilled by the app for this conversation (A13), once.
    public var draft: String? = nil
}
