import Testing

@testable import ChatServer

/// One event stream's queue bound (issue 26): the catch-up waits for room,
/// a client that does not read newer events is closed.
@Suite struct EventStreamBudgetTests {
    static let limits = EventStreamBudget.Limits(maxFrames: 8, maxBytes: 1000)

    @Test func theCatchUpIsHeldAtHalfTheBoundAndResumesAtAQuarter() {
        var budget = EventStreamBudget(limits: Self.limits, catchUpThrough: 100)
        for seq in 1...4 { #expect(budget.offer(userSeq: Int64(seq), size: 10) == .take) }
        #expect(budget.offer(userSeq: 5, size: 10) == .hold)
        #expect(budget.isHolding)
        #expect(budget.frames == 4)
        #expect(budget.sent(size: 10) == false) // 3 left
        #expect(budget.sent(size: 10) == true) // 2 left: a quarter, go on
        #expect(!budget.isHolding)
        #expect(budget.sent(size: 10) == false) // not holding: nothing to resume
        #expect(budget.offer(userSeq: 5, size: 10) == .take)
    }

    @Test func theCatchUpIsHeldByBytesToo() {
        var budget = EventStreamBudget(limits: Self.limits, catchUpThrough: 100)
        #expect(budget.offer(userSeq: 1, size: 400) == .take)
        #expect(budget.offer(userSeq: 2, size: 200) == .hold)
        // An empty queue takes an event however large.
        #expect(budget.sent(size: 400) == true)
        #expect(budget.offer(userSeq: 2, size: 5000) == .take)
    }

    @Test func aNewEventPastTheBoundIsASlowConsumer() {
        var budget = EventStreamBudget(limits: Self.limits, catchUpThrough: 2)
        #expect(budget.offer(userSeq: 1, size: 10) == .take)
        #expect(budget.offer(userSeq: 2, size: 10) == .take)
        // Newer events may fill the whole bound (the catch-up only half).
        for seq in 3...8 { #expect(budget.offer(userSeq: Int64(seq), size: 10) == .take) }
        #expect(budget.offer(userSeq: 9, size: 10) == .overflow)
        var bytes = EventStreamBudget(limits: Self.limits, catchUpThrough: 0)
        #expect(bytes.offer(userSeq: 1, size: 900) == .take)
        #expect(bytes.offer(userSeq: 2, size: 200) == .overflow)
    }

    @Test func aClientThatReadsKeepsItsStreamOpen() {
        var budget = EventStreamBudget(limits: Self.limits, catchUpThrough: 0)
        for seq in 1...1000 {
            #expect(budget.offer(userSeq: Int64(seq), size: 100) == .take)
            _ = budget.sent(size: 100)
        }
        #expect(budget.frames == 0)
        #expect(budget.bytes == 0)
    }
}
