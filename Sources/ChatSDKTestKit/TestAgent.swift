internal import ChatBackend
internal import ChatCore
import ChatSDK

/// Someone answering on the app's side (an agent, a bot), as the app's
/// backend would through `AppBackendClient`: what they do reaches the
/// user's devices through their event streams.
///
/// A conversation is named by the id the server knows it by: the app's own
/// id, unless it collided with another user's (then
/// `client.serverId(ofConversation:)`). An unknown conversation throws
/// `ChatError.unknownConversation`.
public struct TestAgent: Sendable {
    let driver: WorldDriver
    /// The name messages are signed with (`MessageAuthor.provider(name:)`).
    public let name: String

    /// Says `text` in a conversation; returns the new message's id.
    @discardableResult
    public func say(_ text: String, in conversationId: String) async throws -> String {
        let name = self.name
        return try await driver.perform { world in
            try Self.chatError { try world.backend.agentSay(conversationId: conversationId, text: text, agentName: name).id }
        }
    }

    /// Starts (or, with `false`, stops) typing in a conversation; typing
    /// stops by itself after the app's `typingTTL`.
    public func typing(_ isTyping: Bool = true, in conversationId: String) async throws {
        let name = self.name
        try await driver.perform { world in
            try Self.chatError { try world.backend.agentTyping(conversationId: conversationId, isTyping: isTyping, agentName: name) }
        }
    }

    /// Reads a conversation up to its newest message (`isReadByProvider`).
    public func read(_ conversationId: String) async throws {
        let name = self.name
        try await driver.perform { world in
            try Self.chatError { try world.backend.agentRead(conversationId: conversationId, agentName: name) }
        }
    }

    /// The backend's error as the SDK's public one.
    static func chatError<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as WireError {
            throw ChatError(ChatError.Code(rawValue: error.code.rawValue), error.message)
        }
    }
}
