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
        (SendState.Kind.toBeSent, true, true, OutboxMachine.Attempt.send),
        (.toBeSent, true, false, .send),
        (.toBeSent, false, true, .waitForNetwork),
        (.toBeSent, false, false, .failOffline),
        (.sending, true, true, .skip),
        (.sent, true, true, .skip),
        (.failed, false, true, .skip),
        (.failed, false, false, .skip),
    ])
    func whatToDoWithTheHead(state: SendState.Kind, reachable: Bool, autoResend: Bool, attempt: OutboxMachine.Attempt) {
        var outbox = OutboxMachine()
        if !reachable { outbox.networkWent() }
        #expect(outbox.attempt(state: state, autoResend: autoResend) == attempt)
    }

    // MARK: The network as an input (issue 25, Shape)

    /// The network going makes the head of a queue wait for it; its return
    /// starts the queues that waited, and heads go out again.
    @Test func theNetworkGoingMakesHeadsWaitAndItsReturnStartsThem() throws {
        var outbox = OutboxMachine()
        let sender = try started(outbox.enqueue("m1", in: "c1"))
        outbox.networkWent()
        #expect(!outbox.reachable)
        #expect(outbox.attempt(state: .toBeSent, autoResend: true) == .waitForNetwork)
        #expect(outbox.attempt(state: .toBeSent, autoResend: false) == .failOffline)
        outbox.waitForNetwork(sender)
        let resumed = outbox.networkReturned()
        #expect(resumed.map(\.conversationId) == ["c1"])
        #expect(outbox.reachable)
        #expect(outbox.attempt(state: .toBeSent, autoResend: true) == .send)
    }

    /// The network is the device's, not the user's: a reset keeps what
    /// the outbox heard of it.
    @Test func aResetKeepsTheNetwork() throws {
        var outbox = OutboxMachine()
        outbox.networkWent()
        outbox.reset()
        #expect(outbox.attempt(state: .toBeSent, autoResend: true) == .waitForNetwork)
    }

    /// What the transport says of the network when a send fails beats
    /// what the outbox last heard, either way, and changes nothing after.
    @Test(arguments: [
        // heard reachable, the transport says, outcome
        (true, false as Bool?, "waitForNetwork"),
        (false, true, "backOff"),
        (true, nil, "backOff"),
        (false, nil, "waitForNetwork"),
    ])
    func whatTheTransportSaysNowBeatsWhatTheOutboxHeard(heard: Bool, now: Bool?, outcome: String) throws {
        var outbox = OutboxMachine()
        if !heard { outbox.networkWent() }
        let sender = try started(outbox.enqueue("m1", in: "c1"))
        switch outbox.failed(sender, with: .offline, reachableNow: now, autoResend: true, fraction: { 0 }) {
        case .waitForNetwork: #expect(outcome == "waitForNetwork")
        case .backOff: #expect(outcome == "backOff")
        case .fail: Issue.record("an offline failure with autoResend fails nothing")
        }
        #expect(outbox.reachable == heard, "a word of the transport's is no news of the network")
    }

    // MARK: Failures (D7)

    /// One classification, by the error's code, for both modes: the
    /// transport's failures are retryable, a refusal by the server final.
    @Test(arguments: [
        (ChatError(.offline, "x"), OutboxMachine.Failure.offline),
        (ChatError(.networkFailure, "Connection refused"), .retryable(after: nil)),
        (ChatError(.serverUnavailable, "HTTP 503"), .retryable(after: nil)),
        (ChatError(.rateLimited, "HTTP 429", retryAfter: .seconds(7)), .retryable(after: .seconds(7))),
        (ChatError(.invalidResponse, "unreadable"), .final),
        (ChatError(.badRequest, "too long"), .final),
        (ChatError(.forbidden, "not yours"), .final),
        (ChatError(.attachmentTooLarge, "big"), .final),
        (ChatError(.sessionClosed, "closed"), .final),
        (ChatError(.internalError, "500 with a code"), .final),
    ])
    func aFailureIsClassifiedByItsCode(error: ChatError, failure: OutboxMachine.Failure) {
        #expect(OutboxMachine.Failure(error) == failure)
    }

    @Test(arguments: [
        (TransportError.Kind.offline, ChatError.Code.offline),
        (.refused, .networkFailure), (.reset, .networkFailure), (.timeout, .networkFailure),
        (.unavailable, .serverUnavailable), (.rateLimited, .rateLimited), (.failed, .invalidResponse),
    ])
    func eachTransportKindHasItsCode(kind: TransportError.Kind, code: ChatError.Code) {
        let error = ChatError(TransportError(kind, "m", retryAfter: .seconds(3)))
        #expect(error.code == code && error.message == "m" && error.retryAfter == .seconds(3))
        #expect(code.isRetryable == kind.isRetryable, "the two classifications agree")
    }

    @Test func aRetryableFailureBacksOffAndTheQueueWaitsInOrder() throws {
        var outbox = OutboxMachine()
        let sender = try started(outbox.enqueue("m1", in: "c1"))
        _ = outbox.enqueue("m2", in: "c1")
        let outcome = outbox.failed(sender, with: .retryable(after: nil), autoResend: true, fraction: { 0 })
        let wake = try #require(backOff(outcome, is: .milliseconds(500)))
        #expect(!outbox.isCurrent(sender), "the sender ends")
        #expect(outbox.backingOff == ["c1": wake.id])
        #expect(outbox.enqueue("m3", in: "c1") == nil, "a message sent meanwhile waits behind, with no sender")
        let again = try started(outbox.wake(wake))
        #expect(outbox.next(again) == "m1", "the head goes again first")
        #expect(outbox.wake(wake) == nil, "a wake-up counts once")
        // It fails again: the back-off doubles (1 s, 2 s… scaled by 0.5 + fraction / 2).
        let second = outbox.failed(again, with: .retryable(after: nil), autoResend: true, fraction: { 0.999 })
        let next = try #require(backOff(second, is: .milliseconds(1999)))
        let third = try started(outbox.wake(next))
        outbox.finished(third)
        #expect(outbox.failures.isEmpty, "a head done with resets the back-off")
        #expect(outbox.next(third) == "m2")
    }

    @Test func backOffGrowsUpToThirtySecondsAndRetryAfterIsAFloor() throws {
        var outbox = OutboxMachine()
        var sender = try started(outbox.enqueue("m1", in: "c1"))
        var delays: [Duration] = []
        for _ in 0..<8 {
            guard
                case .backOff(let delay, let wake) = outbox.failed(
                    sender, with: .retryable(after: nil), autoResend: true, fraction: { 1 })
            else {
                Issue.record("no back-off")
                return
            }
            delays.append(delay)
            sender = try started(outbox.wake(wake))
        }
        #expect(delays == [1, 2, 4, 8, 16, 30, 30, 30].map { .seconds($0) })
        let limited = outbox.failed(sender, with: .retryable(after: .seconds(90)), autoResend: true, fraction: { 0 })
        #expect(backOff(limited, is: .seconds(90)) != nil, "the server's Retry-After when it is longer")
    }

    @Test func theRealtimeConnectionOpeningEndsEveryWaitAtOnce() throws {
        var outbox = OutboxMachine()
        let first = try started(outbox.enqueue("m1", in: "c2"))
        let second = try started(outbox.enqueue("m2", in: "c1"))
        let third = try started(outbox.enqueue("m3", in: "c3"))
        let outcome = outbox.failed(first, with: .retryable(after: nil), autoResend: true, fraction: { 0 })
        outbox.networkWent()
        _ = outbox.failed(second, with: .offline, autoResend: true, fraction: { 0 })
        #expect(outbox.paused == ["c1"] && outbox.backingOff.keys.sorted() == ["c2"])
        #expect(outbox.isCurrent(third), "a queue that did not fail goes on")
        let resumed = outbox.linkOpened()
        #expect(resumed.map(\.conversationId) == ["c1", "c2"], "in conversation order")
        #expect(outbox.backingOff.isEmpty && outbox.paused.isEmpty)
        guard case .backOff(_, let wake) = outcome else {
            Issue.record("no back-off")
            return
        }
        #expect(outbox.wake(wake) == nil, "the back-off's wake-up is void")
        #expect(outbox.linkOpened().isEmpty, "started once")
    }

    @Test(arguments: [
        // failure, reachable, autoResend, outcome
        (OutboxMachine.Failure.offline, false, true, "waitForNetwork"),
        (.offline, true, true, "backOff"),
        (.retryable(after: nil), true, true, "backOff"),
        (.retryable(after: nil), false, true, "backOff"),
        (.final, true, true, "fail"),
        (.offline, false, false, "fail"),
        (.retryable(after: nil), true, false, "fail"),
        (.final, true, false, "fail"),
    ])
    func whatAFailureLeadsTo(failure: OutboxMachine.Failure, reachable: Bool, autoResend: Bool, outcome: String) throws {
        var outbox = OutboxMachine()
        let sender = try started(outbox.enqueue("m1", in: "c1"))
        if !reachable { outbox.networkWent() }
        let result = outbox.failed(sender, with: failure, autoResend: autoResend, fraction: { 0.5 })
        switch result {
        case .fail:
            #expect(outcome == "fail")
            #expect(outbox.isCurrent(sender), "the queue goes on after a failed message")
        case .waitForNetwork:
            #expect(outcome == "waitForNetwork")
            #expect(outbox.paused == ["c1"])
        case .backOff:
            #expect(outcome == "backOff")
            #expect(outbox.backingOff.keys.sorted() == ["c1"])
        }
    }

    @Test func afterAResetABackOffsWakeUpStartsNothing() throws {
        var outbox = OutboxMachine()
        let sender = try started(outbox.enqueue("m1", in: "c1"))
        guard
            case .backOff(_, let wake) = outbox.failed(
                sender, with: .retryable(after: nil), autoResend: true, fraction: { 0 })
        else {
            Issue.record("no back-off")
            return
        }
        outbox.reset()
        #expect(outbox.backingOff.isEmpty && outbox.failures.isEmpty)
        _ = try started(outbox.enqueue("n1", in: "c1"))
        #expect(outbox.wake(wake) == nil, "the old user's wake-up changes nothing")
    }
}

/// The wake-up of a back-off of `delay`, or nil when `outcome` is another.
private func backOff(_ outcome: OutboxMachine.Outcome, is delay: Duration) -> OutboxMachine.Wake? {
    guard case .backOff(let actual, let wake) = outcome, actual == delay else { return nil }
    return wake
}

/// The sender an input started (the test fails when it started none).
private func started(_ sender: OutboxMachine.Sender?) throws -> OutboxMachine.Sender {
    try #require(sender)
}
