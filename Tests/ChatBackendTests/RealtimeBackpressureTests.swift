import ChatBackend
import ChatCore
import ChatTestSupport
import Testing

/// A subscription whose consumer says when its queue is full (issue 26):
/// delivery stops at the refused event and goes on from it on resume, and
/// a catch-up longer than a page arrives whole and in order.
@Suite struct RealtimeBackpressureTests {
    /// A consumer with room for `capacity` events until it is drained.
    final class Consumer: Sendable {
        let capacity: Int
        let taken = Locked<[Int64]>([])
        let queued = Locked(0)
        let offers = Locked(0)

        init(capacity: Int) { self.capacity = capacity }

        func offer(_ event: WireEvent) -> Bool {
            offers.withLock { $0 += 1 }
            let room = queued.withLock { queued -> Bool in
                guard queued < capacity else { return false }
                queued += 1
                return true
            }
            if room { taken.withLock { $0.append(event.userSeq) } }
            return room
        }

        func drain() { queued.value = 0 }
    }

    @Test func aRefusedEventIsDeliveredAgainOnResume() throws {
        let world = try TestWorld()
        let pair = try world.tokens("alice")
        for index in 1...3 { try world.send("m\(index)", id: "m\(index)", in: "c1", token: pair.accessToken) }
        let consumer = Consumer(capacity: 2)
        let id = try world.backend.subscribeWithBackpressure(
            apiKey: TestWorld.apiKey, accessToken: pair.accessToken, afterUserSeq: 0, offer: consumer.offer
        ).get()
        #expect(consumer.taken.value == [1, 2])
        // New events while it is full are not offered until it resumes.
        let offersBefore = consumer.offers.value
        try world.send("m4", id: "m4", in: "c1", token: pair.accessToken)
        #expect(consumer.offers.value == offersBefore)
        consumer.drain()
        world.backend.resume(id)
        #expect(consumer.taken.value == [1, 2, 3, 4])
        consumer.drain()
        world.backend.resume(id)
        consumer.drain()
        world.backend.resume(id)
        consumer.drain()
        world.backend.resume(id)
        #expect(consumer.taken.value == Array(1...8))
        // Caught up: a new event goes straight through.
        consumer.drain()
        try world.send("m5", id: "m5", in: "c1", token: pair.accessToken)
        #expect(consumer.taken.value == Array(1...10))
    }

    @Test func aCatchUpLongerThanAPageArrivesWholeAndInOrder() throws {
        let world = try TestWorld()
        let pair = try world.tokens("alice")
        try world.send("first", id: "m0", in: "c1", token: pair.accessToken)
        let says = Backend.deliveryPageSize + 30
        for index in 0..<says { _ = try world.backend.agentSay(conversationId: "c1", text: "say \(index)") }
        let total = Int64(2 + 2 * says)
        let log = EventLog()
        _ = world.backend.subscribe(apiKey: TestWorld.apiKey, accessToken: pair.accessToken, afterUserSeq: 0) { log.append($0) }
        #expect(log.userSeqs == Array(1...total))
        // And through a small queue, resumed again and again.
        let consumer = Consumer(capacity: 7)
        let id = try world.backend.subscribeWithBackpressure(
            apiKey: TestWorld.apiKey, accessToken: pair.accessToken, afterUserSeq: 0, offer: consumer.offer
        ).get()
        for _ in 0..<200 where consumer.taken.value.count < total {
            consumer.drain()
            world.backend.resume(id)
        }
        #expect(consumer.taken.value == Array(1...total))
    }
}
