import ChatSimulation
import Testing

@testable import ChatSDK

/// What a send costs the cache on disk (issue 17): the message appears (one
/// commit), it is on its way (one), its outcome (one); the realtime events
/// that echo it write nothing, and those that arrive before the answer
/// write their data with their cursor (one each). Before batching, 7.6.
@Suite struct CacheCommitTests {
    @Test func aSendCommitsAtMostFourTimes() throws {
        let app = try Fixture()
        let client = app.client
        try app.call { try await client.setCurrentUser(userId: "alice") }
        let conversation = try app.call { try await client.startConversation(title: nil) }
        try app.call { try await client.sendMessage(.text("first"), in: conversation.id) }
        app.world.runUntilIdle()
        let store = try app.call { await client.core.store }
        let commits = Locked(0)
        store.observeCommits { commits.withLock { $0 += 1 } }
        for index in 1...10 {
            try app.call { try await client.sendMessage(.text("message \(index)"), in: conversation.id) }
            app.world.runUntilIdle()
        }
        let messages = try app.call { try await client.conversation(withId: conversation.id) }
        #expect(messages?.messageCount == 11)
        #expect((20...30).contains(commits.withLock { $0 }), "\(commits.withLock { $0 }) commits for 10 sends")
    }
}
