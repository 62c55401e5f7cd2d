import ChatSDK
import Foundation

/// A small app's support-chat screen, as an app team would write it: sign
/// in, open a conversation, send, and show the conversation's lines as they
/// change. It knows only ChatSDK's public API; the tests beside it drive it
/// with ChatSDKTestKit.
final class SupportChatModel: @unchecked Sendable {
    // @unchecked: every stored var is read and written under `lock` only.
    private let lock = NSLock()
    private let client: ChatClient
    private var conversationIdValue: String?
    private var linesValue: [String] = []

    init(client: ChatClient) { self.client = client }

    /// The open conversation's id, once `open` has run.
    var conversationId: String? { lock.withLock { conversationIdValue } }

    /// The conversation as the screen shows it, oldest first: "me: Hi (sent)", "agent: Hello".
    var lines: [String] { lock.withLock { linesValue } }

    /// Signs the user in and starts their support conversation.
    func open(userId: String) async throws {
        try await client.setCurrentUser(userId: userId)
        let conversation = try await client.startConversation(title: "Support")
        lock.withLock { conversationIdValue = conversation.id }
    }

    /// Sends a text in the open conversation.
    func send(_ text: String) async throws {
        guard let conversationId else { return }
        _ = try await client.sendMessage(.text(text), in: conversationId)
    }

    /// What the screen's `.task` runs: follows the conversation's messages
    /// until cancelled.
    func follow() async {
        guard let conversationId else { return }
        do {
            for try await response in client.watchItems(ofConversationWithId: conversationId) {
                let lines = response.data.elements.reversed().map(Self.line)
                lock.withLock { linesValue = lines }
            }
        } catch {
            lock.withLock { linesValue.append("error: \(error)") }
        }
    }

    static func line(_ message: Message) -> String {
        switch message.author {
        case .user: "me: \(message.preview) (\(message.state.name))"
        case .provider(let name): "\(name): \(message.preview)"
        case .system: "system: \(message.preview)"
        }
    }
}
