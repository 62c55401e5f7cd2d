import Testing

@testable import ChatServer

/// The open event streams (issue 26): a user's streams past the cap close
/// the oldest, with the reason.
@Suite struct RealtimeHubTests {
    @Test func aStreamPastTheUsersCapClosesTheOldest() async {
        let hub = RealtimeHub(maxStreamsPerUser: 2)
        var closes: [AsyncStream<RealtimeHub.Close>] = []
        func open(_ userId: String?) -> Int {
            let (stream, continuation) = AsyncStream<RealtimeHub.Close>.makeStream()
            closes.append(stream)
            return hub.register(apiKey: "k", userId: userId, close: continuation)
        }
        _ = open("alice")
        _ = open("bob")
        _ = open("alice")
        #expect(hub.count == 3)
        _ = open("alice")
        #expect(hub.count == 3)
        var first = closes[0].makeAsyncIterator()
        #expect(await first.next() == .tooManyStreams(2))
        #expect(await first.next() == nil)
        #expect(RealtimeHub.Close.tooManyStreams(2).code == 1008)
        // Bob's and alice's two newest are open.
        #expect(hub.dropAll(apiKey: "k", userId: "alice", reason: "test") == 2)
        #expect(hub.dropAll(apiKey: "k", userId: "bob", reason: "test") == 1)
        var third = closes[2].makeAsyncIterator()
        #expect(await third.next() == .goingAway("test"))
    }

    @Test func theSlowConsumerReasonSaysWhyAndHowToComeBack() {
        let close = RealtimeHub.Close.slowConsumer(frames: 256)
        #expect(close.code == 1013)
        #expect(close.reason.contains("slow consumer"))
        #expect(close.reason.contains("after="))
    }
}
