import ChatBackend
import ChatCore
import ChatSimulation
import ChatTestSupport
import Foundation
import Testing

@testable import ChatSDK

/// An answer that arrives after the user changed never lands in the new
/// user's store (issue 25, Shape): it is recognised by the id of the call
/// or attempt it answers, as everywhere else, not by which store the
/// client held when it was asked.
@Suite struct LateAnswerTests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 7, 7, 7])

    func jwt(_ user: String, world: World) -> String {
        let exp = world.now + .seconds(3600)
        return AppJWT.sign(
            AppJWT.Claims(externalId: user, exp: Date(timeIntervalSince1970: Double(exp.milliseconds) / 1000)), secret: World.jwtSecret)
    }

    /// Alice's first message creates her conversation, under an id the
    /// server mints (another user holds hers). Its answer, which reveals
    /// that id, arrives once Bob is the user: Bob learns no alias.
    @Test func anAliasALateSendAnswerRevealsIsNotTheNextUsers() throws {
        let holding = Locked(false)
        var transport: HeldAnswers!
        let f = try Fixture(transport: { _, base in
            transport = HeldAnswers(base) { request in
                guard case .sendMessage(_, _?, _) = request else { return false }
                return holding.withLock { $0 }
            }
            return transport
        })
        try f.call { try await f.client.setCurrentUser(userId: "mallory") }
        let squatted = try f.call { try await f.client.startConversation(id: "c-visit") }
        try f.call { try await f.client.sendMessage(.text("mine now"), in: squatted.id) }
        f.world.runUntilIdle()
        try f.call { await f.client.clearCurrentUser() }

        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        let mine = try f.call { try await f.client.startConversation(id: "c-visit") }
        holding.withLock { $0 = true }
        try f.call { try await f.client.sendMessage(.text("Hello, doctor"), in: mine.id) }
        f.world.runUntilIdle()
        #expect(transport.held == 1, "the send's answer is on its way")
        let minted = try #require(f.world.backend.conversations(userId: "alice").first?.id)
        #expect(minted != "c-visit")

        try f.call { await f.client.clearCurrentUser() }
        try f.call { try await f.client.setCurrentUser(userId: "bob") }
        transport.release()
        f.world.runUntilIdle()
        #expect(f.client.serverId(ofConversation: "c-visit") == "c-visit")
        #expect(try f.call { await f.client.core.store.conversationAliases() } == [:])
    }

    /// An anonymous user reads an attachment's bytes; before they arrive,
    /// they log in, and their conversations become the account's (A8), so
    /// the new user's cache holds the same message, without its bytes.
    /// The late bytes are not kept there.
    @Test func bytesFetchedForTheUserBeforeAreNotKeptForTheNext() throws {
        let holding = Locked(false)
        var transport: HeldAnswers!
        let f = try Fixture(transport: { _, base in
            transport = HeldAnswers(base) { request in
                guard case .attachmentData = request else { return false }
                return holding.withLock { $0 }
            }
            return transport
        })
        _ = try f.call { try await f.client.loginAnonymous() }
        let conversation = try f.call { try await f.client.startConversation(title: "Knee") }
        let message = try f.call {
            try await f.client.sendAttachment(Self.png, kind: .image, mimeType: "image/png", in: conversation.id)
        }
        f.world.runUntilIdle()
        #expect(try f.call { try await f.client.message(withId: message.id) }?.state == .sent)
        holding.withLock { $0 = true }
        let fetched = Locked<AttachmentData?>(nil)
        _ = f.world.spawn {
            let data = try? await f.client.data(for: message)
            fetched.withLock { $0 = data }
        }
        f.world.runUntilIdle()
        #expect(transport.held == 1, "the bytes are on their way")

        try f.call { try await f.client.loginUser(jwt: jwt("alice", world: f.world)) }
        let items = Collected(f.client.watchItems(ofConversationWithId: conversation.id), in: f.world)
        f.world.runUntilIdle()
        #expect(items.last?.data.elements.map(\.id) == [message.id])
        let cached = { try f.call { await f.client.core.store.attachment(messageId: message.id) } }
        #expect(try cached()?.attachmentId != nil && cached()?.data == nil, "Alice's cache knows the message, not its bytes")

        holding.withLock { $0 = false }
        transport.release()
        f.world.runUntilIdle()
        #expect(fetched.withLock { $0 }?.source == .network, "the caller had its answer")
        #expect(try cached()?.data == nil, "the late bytes are not kept for Alice")
    }
}
