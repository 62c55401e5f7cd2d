import Foundation

/// A conversation as the device knows it.
public struct Conversation: Sendable, Hashable, Identifiable {
    /// The id the app knows it by (chosen on the device, or by the server).
    public let id: String
    /// Its title, if it has one.
    public var title: String?
    /// True while the conversation exists only on this device (D4).
    public var isLocal: Bool
    /// When the conversation was started.
    public var createdAt: Date
    /// When the conversation last changed (a message, a title).
    public var updatedAt: Date
    /// Messages the server holds, plus those still on their way.
    public var messageCount: Int
    /// The newest message's `preview`, if any.
    public var lastMessagePreview: String?
    /// Whether a provider is typing (D9); expires on its own.
    public var providerTyping: Bool
    /// Text prefilled by the app for this conversation (A13), once.
    public var draft: String? = nil
}
