import ChatBackend
import ChatCore
import ChatSimulation
import ChatTestSupport
import Foundation
import Testing

@testable import ChatSDK

/// A send into a conversation this device does not hold (opened from a push,
/// after a sign-in with an empty memory cache, or from a second device)
/// asks the server for it first, as a watcher does (D5; issue 28's open
/// question: it used to throw "No conversation … on this device").
@Suite struct SendToAServerConversationTests {
    /// Alice starts conversation "Knee" and sends "first"; then `user` is
    /// set in a new session, whose memory cache starts empty.
    static func sentOnce(_ f: Fixture, then user: String) throws -> Conversation {
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        let conversation = try f.call { try await f.client.startConversation(title: "Knee") }
        try f.call { try await f.client.sendMessage(.text("first"), in: conversation.id) }
        f.world.runUntilIdle()
        try f.call { await f.client.clearCurrentUser() }
        try f.call { try await f.client.setCurrentUser(userId: user) }
        return conversation
    }

    @Test func aSendIntoTheUsersConversationOnTheServerFetchesItThenSends() throws {
        let f = try Fixture()
        let conversation = try Self.sentOnce(f, then: "alice")
        #expect(try f.call { try await f.client.conversation(withId: conversation.id) } == nil, "the cache starts empty")

        let second = try f.call { try await f.client.sendMessage(.text("second"), in: conversation.id) }
        f.world.runUntilIdle()
        #expect(try f.call { try await f.client.message(withId: second.id) }?.state == .sent)
        #expect(try f.call { try await f.client.conversation(withId: conversation.id) }?.title == "Knee")
        #expect(try f.world.backend.messages(conversationId: conversation.id).map(\.content) == [.text("first"), .text("second")])
    }

    @Test func anotherUsersConversationIsForbiddenAndNobodysUnknown() throws {
        let f = try Fixture()
        let alices = try Self.sentOnce(f, then: "bob")
        let theirs = chatError { try f.call { try await f.client.sendMessage(.text("hi"), in: alices.id) } }
        let nobodys = chatError { try f.call { try await f.client.sendMessage(.text("hi"), in: "c-nobodys") } }
        #expect(theirs?.code == .forbidden && theirs?.message == "The conversation belongs to another user", "the server's answer")
        #expect(nobodys?.code == .unknownConversation && nobodys?.message == "No conversation c-nobodys on this device or the server")
        #expect(try f.world.backend.messages(conversationId: alices.id).map(\.content) == [.text("first")])
        #expect(try f.call { try await f.client.conversation(withId: alices.id) } == nil)
    }

    @Test func offlineTheConversationCannotBeAskedAndTheSendSaysWhy() throws {
        let f = try Fixture()
        let conversation = try Self.sentOnce(f, then: "alice")
        f.world.network.setOnline(false)
        let error = chatError { try f.call { try await f.client.sendMessage(.text("second"), in: conversation.id) } }
        #expect(error?.code == .offline, "\(String(describing: error))")
    }

    /// The conversation's answer arrives once Bob is the user: it is not
    /// stored in Bob's cache, and Alice's send ends with userCleared.
    @Test func aConversationFetchedForTheUserBeforeIsNotKeptForTheNext() throws {
        let holding = Locked(false)
        var transport: HeldAnswers!
        let f = try Fixture(transport: { _, base in
            transport = HeldAnswers(base) { request in
                guard case .getConversation = request else { return false }
                return holding.withLock { $0 }
            }
            return transport
        })
        let conversation = try Self.sentOnce(f, then: "alice")
        holding.withLock { $0 = true }
        let outcome = Locked<ChatError?>(nil)
        _ = f.world.spawn {
            do { _ = try await f.client.sendMessage(.text("late"), in: conversation.id) } catch {
                outcome.withLock { $0 = error as? ChatError }
            }
        }
        f.world.runUntilIdle()
        #expect(transport.held == 1, "the conversation is on its way")
        try f.call { await f.client.clearCurrentUser() }
        try f.call { try await f.client.setCurrentUser(userId: "bob") }
        holding.withLock { $0 = false }
        transport.release()
        f.world.runUntilIdle()
        #expect(outcome.withLock { $0 }?.code == .userCleared)
        #expect(try f.call { try await f.client.conversation(withId: conversation.id) } == nil, "not in Bob's cache")
        #expect(try f.world.backend.messages(conversationId: conversation.id).map(\.content) == [.text("first")])
    }
}
