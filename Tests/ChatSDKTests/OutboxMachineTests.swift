import Testing

@testable import ChatSDK

/// The outbox's decisions, without I/O: every input in every state of a
/// conversation's queue (idle, sending, waiting for the network, after a
/// reset), including the orders only a network produces.
@Suite struct OutboxMachineTests {
    @Test func aQueueGoesOutInOrderByOneSender() throws {
        var outbox = OutboxMachine()
        let sender = try started(outbox.enqueue("m1", in: "c1"))
        #expect(outbox.enqueue("m2", in: "c1") == nil, "one sender per conversation")
        #expect(outbox.next(sender) == "m1")
        #expect(outbox.next(sender) == "m1", "the head stays until it is finished")
        outbox.finished(sender)
        #expect(outbox.next(sender) == "m2")
        outbox.finished(sender)
        #expect(outbox.next(sender) == nil)
        #expect(outbox.queues.isEmpty && outbox.senders.isEmpty, "an empty queue ends its sender")
        #expect(outbox.enqueue("m3", in: "c1") != nil, "a new message starts a new sender")
    }

    @Test func conversationsHaveSendersOfTheirOwn() throws {
        var outbox = OutboxMachine()
        let first = try started(outbox.enqueue("m1", in: "c1"))
        let second = try started(outbox.enqueue("m2", in: "c2"))
        #expect(first.id != second.id)
        #expect(outbox.next(first) == "m1")
        #expect(outbox.next(second) == "m2")
        outbox.finished(second)
        #expect(outbox.next(first) == "m1", "one conversation's progress leaves the other's queue alone")
    }

    @Test func aQueueWaitsForTheNetworkAndResumesWhenItReturns() throws {
        var outbox = OutboxMachine()
        let sender = try started(outbox.enqueue("m1", in: "c2"))
        let other = try started(outbox.enqueue("m2", in: "c1"))
        outbox.waitForNetwork(sender)
        outbox.waitForNetwork(other)
        #expect(outbox.paused == ["c1", "c2"])
        #expect(!outbox.isCurrent(sender))
        #expect(outbox.next(sender) == nil, "a sender that waits has ended")
        let resumed = outbox.networkReturned()
        #expect(resumed.map(\.conversationId) == ["c1", "c2"], "in conversation order")
        #expect(outbox.paused.isEmpty)
        #expect(outbox.networkReturned().isEmpty, "started once")
        #expect(outbox.next(resumed[1]) == "m1", "the message that waited goes first")
    }

    @Test func aMessageQueuedWhileWaitingStartsASenderThatFindsTheNetworkItself() throws {
        var outbox = OutboxMachine()
        let sender = try started(outbox.enqueue("m1", in: "c1"))
        outbox.waitForNetwork(sender)
        let again = try started(outbox.enqueue("m2", in: "c1"))
        #expect(outbox.paused.isEmpty)
        #expect(outbox.next(again) == "m1")
    }

    @Test func aConversationThatCouldNotBeCreatedFailsWhatWaitsBehind() throws {
        var outbox = OutboxMachine()
        let sender = try started(outbox.enqueue("m1", in: "c1"))
        _ = outbox.enqueue("m2", in: "c1")
        _ = outbox.enqueue("m3", in: "c1")
        #expect(outbox.creationFailed(sender) == ["m2", "m3"])
        #expect(outbox.creationFailed(sender).isEmpty, "two failures at once fail each message once")
        outbox.finished(sender)
        #expect(outbox.next(sender) == nil)
    }

    @Test func afterAResetLateResultsChangeNothing() throws {
        var outbox = OutboxMachine()
        let old = try started(outbox.enqueue("m1", in: "c1"))
        _ = outbox.enqueue("m2", in: "c1")
        outbox.reset()
        #expect(outbox.queues.isEmpty && outbox.senders.isEmpty && outbox.paused.isEmpty)
        // The new user's message in a conversation of the same id.
        let new = try started(outbox.enqueue("n1", in: "c1"))
        #expect(new.id != old.id)
        // The answer to the old sender's request arrives now.
        #expect(!outbox.isCurrent(old))
        outbox.finished(old)
        outbox.waitForNetwork(old)
        #expect(outbox.creationFailed(old).isEmpty)
        #expect(outbox.next(old) == nil)
        #expect(outbox.paused.isEmpty)
        #expect(outbox.next(new) == "n1", "the new sender's queue is untouched")
    }

    @Test func aNetworkReturningAfterAResetStartsNothing() throws {
        var outbox = OutboxMachine()
        let sender = try started(outbox.enqueue("m1", in: "c1"))
        outbox.waitForNetwork(sender)
        outbox.reset()
        #expect(outbox.networkReturned().isEmpty)
    }

    @Test(arguments: [
        ("toBeSent", true, true, OutboxMachine.Attempt.send),
        ("toBeSent", true, false, .send),
        ("toBeSent", false, true, .waitForNetwork),
        ("toBeSent", false, false, .failOffline),
        ("sending", true, true, .skip),
        ("sent", true, true, .skip),
        ("failed", false, true, .skip),
        ("failed", false, false, .skip),
    ])
    func whatToDoWithTheHead(state: String, reachable: Bool, autoResend: Bool, attempt: OutboxMachine.Attempt) {
        #expect(OutboxMachine.attempt(state: state, reachable: reachable, autoResend: autoResend) == attempt)
    }

    @Test func onlyAnOfflineFailureWithAutomaticResendingWaits() {
        #expect(OutboxMachine.waitsForNetwork(afterFailingOffline: true, autoResend: true))
        #expect(!OutboxMachine.waitsForNetwork(afterFailingOffline: true, autoResend: false))
        #expect(!OutboxMachine.waitsForNetwork(afterFailingOffline: false, autoResend: true))
        #expect(!OutboxMachine.waitsForNetwork(afterFailingOffline: false, autoResend: false))
    }
}

/// The sender an input started (the test fails when it started none).
private func started(_ sender: OutboxMachine.Sender?) throws -> OutboxMachine.Sender {
    try #require(sender)
}
