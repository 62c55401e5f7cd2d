import Synchronization

/// How many times `net online` ran: a `net offline --after` armed before
/// the last of them and not yet due no longer fires.
final class OnlineEpoch: Sendable {
    private let value = Mutex(0)

    var current: Int { value.withLock { $0 } }

    func bump() { value.withLock { $0 += 1 } }
}
