import ChatCore
import ChatSDKNetwork
import ChatSimulation
import Dispatch
import Foundation
import Synchronization

/// The server side of `chatbench --server URL`: a chatbench server asked
/// over HTTP with the app's secret (``AppBackendClient``); by default the
/// demo app that `chatbench serve` creates.
///
/// ``ServerSide`` is synchronous: each call runs its request in a detached
/// task and blocks the calling thread until it ends. Call it from the
/// workbench's own thread, never from a task of the cooperative pool (it
/// would hold one of that pool's few threads while the request needs one).
/// Errors are the server's `WireError`s, or `TransportError`s when it
/// cannot be reached.
final class HTTPServerSide: ServerSide {
    let label: String
    let app: AppBackendClient

    init(baseURL: String, apiKey: String = World.apiKey, secret: String = World.jwtSecret) {
        label = baseURL
        app = AppBackendClient(baseURL: baseURL, apiKey: apiKey, secret: secret)
    }

    func users() throws -> [HTTPWire.AppUser] { try wait { try await $0.users() } }
    func attachments() throws -> [HTTPWire.AppAttachment] {
        throw ScriptError(.badValue, "server attachments needs the embedded world: the server has no route that lists attachments")
    }
    func conversations(userId: String) throws -> [WireConversation] { try wait { try await $0.conversations(userId: userId) } }
    func messages(conversationId: String) throws -> [WireMessage] { try wait { try await $0.messages(conversationId: conversationId) } }
    func sessions(userId: String) throws -> [HTTPWire.AppSession] { try wait { try await $0.sessions(userId: userId) } }
    func pushSubscriptions(userId: String) throws -> [HTTPWire.AppDevice] { try wait { try await $0.pushSubscriptions(userId: userId) } }
    func pushes(userId: String) throws -> [HTTPWire.AppPush] { try wait { try await $0.pushes(userId: userId) } }
    func settings() throws -> [HTTPWire.AppSetting] { try wait { try await $0.settings() } }
    func updateSettings(_ changes: [HTTPWire.AppSetting]) throws { _ = try wait { try await $0.updateSettings(changes) } }

    func expireAccessTokens(userId: String) throws { try wait { try await $0.expireAccessTokens(userId: userId) } }
    func revokeTokens(userId: String) throws { try wait { try await $0.revokeTokens(userId: userId) } }
    func issueAccessToken(userId: String) throws -> HTTPWire.IssuedCredentialBody {
        try wait { try await $0.issueAccessToken(userId: userId) }
    }
    func issueSessionToken(userId: String, ttl: Duration?) throws -> HTTPWire.IssuedCredentialBody {
        let milliseconds = ttl?.wholeMilliseconds
        return try wait { try await $0.issueSessionToken(userId: userId, ttlMilliseconds: milliseconds) }
    }

    func agentSay(conversationId: String, text: String) throws -> WireMessage {
        try wait { try await $0.agentSayMessage(text, in: conversationId) }
    }
    func agentSendAttachment(
        conversationId: String, kind: WireContent.AttachmentKind, mimeType: String, fileName: String?, data: Data
    ) throws -> WireMessage {
        try wait { try await $0.agentSendAttachment(data, kind: kind, mimeType: mimeType, fileName: fileName, in: conversationId) }
    }
    func agentTyping(conversationId: String, isTyping: Bool) throws {
        try wait { try await $0.agentTyping(isTyping, in: conversationId) }
    }
    func agentRead(conversationId: String) throws { try wait { try await $0.agentRead(in: conversationId) } }

    // MARK: Bridging

    private func wait<T: Sendable>(_ work: @escaping @Sendable (AppBackendClient) async throws -> T) throws -> T {
        let app = self.app
        return try Self.blocking { try await work(app) }
    }

    /// Runs `work` in a detached task (on the global executor, not the
    /// caller's) and blocks this thread until it finishes; returns or
    /// rethrows its outcome.
    static func blocking<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let outcome = Outcome<T>()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do {
                let value = try await work()
                outcome.result.withLock { $0 = .success(value) }
            } catch {
                outcome.result.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        return try outcome.result.withLock { $0! }.get()
    }

    private final class Outcome<T: Sendable>: Sendable {
        let result = Mutex<Result<T, any Error>?>(nil)
    }
}
