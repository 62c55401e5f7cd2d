import ChatBackend
import ChatCore
import ChatSDK
import ChatSDKNetwork
import ChatServer
import ChatSimulation
import Foundation
import Testing

@testable import Workbench

/// The embedded world and a real server answer the workbench's "other side"
/// the same (``ServerSide``): one story, told to each, read back the same.
@Suite struct ServerSideTests {
    /// What a story leaves behind, without what differs by nature between
    /// the worlds (times, identifiers the server makes).
    struct Outcome: Equatable {
        var users: [HTTPWire.AppUser] = []
        var conversations: [String] = []
        var messages: [String] = []
        var sessions: [HTTPWire.AppSession] = []
        var devices: [HTTPWire.AppDevice] = []
        var pushes: [HTTPWire.AppPush] = []
        var settings: [HTTPWire.AppSetting] = []
        var refusals: [String] = []
        var credentials: [String] = []
        var sessionsAfterRevoke: [HTTPWire.AppSession] = []
    }

    /// The user's side of the story, as a synchronous request.
    typealias Perform = @Sendable (WireEnvelope) throws -> WireResponse

    static func story(_ side: any ServerSide, issueTokens: @Sendable (String) throws -> TokenPair, perform: Perform) -> Outcome {
        var outcome = Outcome()
        func refused(_ what: String, _ body: () throws -> Void) {
            do {
                try body()
                outcome.refusals.append("\(what): accepted")
            } catch let error as WireError {
                outcome.refusals.append("\(what): \(error)")
            } catch {
                outcome.refusals.append("\(what): \(type(of: error))")
            }
        }
        do {
            let alice = try issueTokens("alice")
            func send(_ request: WireRequest) throws {
                _ = try perform(WireEnvelope(apiKey: World.apiKey, accessToken: alice.accessToken, deviceId: "phone", request: request))
            }
            try send(.registerDevice(pushToken: "push-token"))
            try send(
                .sendMessage(
                    conversationId: "c1", createConversation: NewConversation(title: "help"),
                    message: NewMessage(id: "m1", content: .text("hello"), replyTo: nil)))
            let said = try side.agentSay(conversationId: "c1", text: "Hi Alice")
            try side.agentTyping(conversationId: "c1", isTyping: true)
            try side.agentRead(conversationId: "c1")
            try side.updateSettings([.init(key: "typingTTL", value: "10s")])
            refused("bad setting") { try side.updateSettings([.init(key: "typingTTL", value: "soon")]) }
            refused("unknown setting") { try side.updateSettings([.init(key: "colour", value: "blue")]) }
            refused("unknown conversation") { _ = try side.messages(conversationId: "nope") }
            refused("agent, unknown conversation") { _ = try side.agentSay(conversationId: "nope", text: "hi") }
            refused("revoke nobody") { try side.revokeTokens(userId: "nobody") }
            let access = try side.issueAccessToken(userId: "bob")
            let session = try side.issueSessionToken(userId: "carol", ttl: .seconds(60))
            outcome.credentials = [
                String(access.token.prefix(3)), "\(access.expiresAt == nil)",
                String(session.token.prefix(3)), "\(session.expiresAt != nil)", "\(said.seq)",
            ]

            outcome.users = try side.users()
            outcome.conversations = try side.conversations(userId: "alice").map { "\($0.id) \($0.title ?? "-") \($0.lastSeq)" }
            outcome.messages = try side.messages(conversationId: "c1").map { "\($0.seq) \($0.author) \($0.content)" }
            outcome.sessions = try side.sessions(userId: "alice")
            outcome.devices = try side.pushSubscriptions(userId: "alice")
            outcome.pushes = try side.pushes(userId: "alice")
            outcome.settings = try side.settings()
            try side.expireAccessTokens(userId: "alice")
            try side.revokeTokens(userId: "alice")
            outcome.sessionsAfterRevoke = try side.sessions(userId: "alice")
        } catch {
            outcome.refusals.append("the story failed: \(error)")
        }
        return outcome
    }

    @Test func theEmbeddedAndTheHTTPSidesAnswerTheSame() async throws {
        let world = try World()
        let backend = world.backend
        let embedded = Self.story(
            EmbeddedServerSide(backend: backend),
            issueTokens: { try backend.issueTokens(apiKey: World.apiKey, userId: $0) },
            perform: { try backend.handle($0).get() })

        var configuration = ChatServer.Configuration(port: 0)
        configuration.logger.logLevel = .warning
        let running = try await ChatServer(configuration: configuration).start()
        let side = HTTPServerSide(baseURL: running.baseURL)
        let transport = HTTPTransport(baseURL: running.baseURL)
        // ServerSide blocks its caller: tell the story on a thread of its own,
        // as the workbench does, not on one of the cooperative pool's.
        let overHTTP = await onThread {
            Self.story(
                side, issueTokens: { id in try HTTPServerSide.blocking { try await side.app.issueTokenPair(userId: id) } },
                perform: { envelope in try HTTPServerSide.blocking { try await transport.perform(envelope) } })
        }
        await running.stop()

        #expect(side.label == running.baseURL)
        #expect(embedded.refusals.allSatisfy { !$0.contains("accepted") && !$0.contains("failed") }, "\(embedded.refusals)")
        #expect(embedded.users.map(\.id) == ["alice", "bob", "carol"])
        #expect(embedded.messages.count == 2 && embedded.pushes.count == 1 && embedded.sessionsAfterRevoke.isEmpty)
        #expect(overHTTP == embedded)
    }
}

/// Runs `body` on a new thread; returns its result without holding a thread of the cooperative pool.
func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}
