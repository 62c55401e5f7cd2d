import ChatCore
import Synchronization

/// The virtual clock and its timers: a queue of wake-ups ordered by virtual
/// time, then by the order they were scheduled.
package final class Scheduler: Sendable {
    package struct TimerID: Hashable, Sendable { let seq: UInt64 }

    struct Entry {
        var time: Instant
        var seq: UInt64
        var kind: WaitKind
        var fire: @Sendable () -> Void
    }

    struct Stop {
        var clock: Instant
        var firesAllAtClock: Bool
        var firedOneAtClock = false
        var reached: @Sendable () -> Void
    }

    struct State {
        var now: Instant
        var nextSeq: UInt64 = 0
        /// Sorted by (time, seq).
        var entries: [Entry] = []
        var inFlightCount = 0
        /// Told when work in flight is scheduled (a test kit's driver).
        var wake: (@Sendable () -> Void)?
        /// Where a replay of an interrupted step stops (``stop(at:firingAll:reached:)``).
        var stop: Stop?
    }

    private let state: Mutex<State>

    package init(start: Instant) {
        state = Mutex(State(now: start))
    }

    package var now: Instant { state.withLock { $0.now } }

    /// Room for wake-ups kept whatever the number pending.
    package static let keptCapacity = 1_024

    /// How many wake-ups the queue has room for (bounded once a burst is over).
    package var capacity: Int { state.withLock { $0.entries.capacity } }

    /// Number of pending wake-ups that are work in flight.
    package var inFlightCount: Int { state.withLock { $0.inFlightCount } }

    /// Schedules `fire` at `time` (not before now).
    @discardableResult
    package func schedule(at time: Instant, kind: WaitKind, _ fire: @escaping @Sendable () -> Void) -> TimerID {
        let (id, wake) = state.withLock { s in
            let seq = s.nextSeq
            s.nextSeq += 1
            let entry = Entry(time: max(time, s.now), seq: seq, kind: kind, fire: fire)
            let index = s.entries.partitioningIndex { ($0.time, $0.seq) > (entry.time, entry.seq) }
            s.entries.insert(entry, at: index)
            if kind.category == .inFlight { s.inFlightCount += 1 }
            return (TimerID(seq: seq), kind.category == .inFlight ? s.wake : nil)
        }
        wake?()
        return id
    }

    /// Calls `wake` whenever work in flight is scheduled, from the thread
    /// that scheduled it (work started outside the world's executor still
    /// wakes whoever runs the world).
    package func onScheduleInFlight(_ wake: @escaping @Sendable () -> Void) { state.withLock { $0.wake = wake } }

    /// Removes a wake-up that has not fired; returns whether it was pending.
    @discardableResult
    package func cancel(_ id: TimerID) -> Bool {
        state.withLock { s in
            guard let index = s.entries.firstIndex(where: { $0.seq == id.seq }) else { return false }
            if s.entries[index].kind.category == .inFlight { s.inFlightCount -= 1 }
            s.entries.remove(at: index)
            return true
        }
    }

    /// Time of the earliest pending wake-up of any kind.
    var earliest: Instant? {
        state.withLock { $0.entries.first?.time }
    }

    /// Time of the earliest pending in-flight wake-up.
    var earliestInFlight: Instant? {
        earliest(in: [.inFlight])
    }

    /// Time of the earliest pending wake-up of one of `categories`.
    func earliest(in categories: Set<WaitKind.Category>) -> Instant? {
        state.withLock { s in s.entries.first(where: { categories.contains($0.kind.category) })?.time }
    }

    /// Pops the earliest wake-up due at or before `limit`, moving the clock to
    /// its time, and returns its action.
    func popDue(upTo limit: Instant) -> (@Sendable () -> Void)? {
        popDueEntry(upTo: limit)?.fire
    }

    /// `popDue(upTo:)` with the wake-up's kind, for who wants to say why
    /// the clock moved.
    func popDueEntry(upTo limit: Instant) -> (kind: WaitKind, fire: @Sendable () -> Void)? {
        state.withLock { s in
            guard let first = s.entries.first, first.time <= limit else { return nil }
            if var stop = s.stop, first.time >= stop.clock, first.time > stop.clock || !stop.firesAllAtClock {
                // The wake-up that moved the clock there fires; the work it
                // starts waits, as it did when Ctrl-C landed between jobs.
                guard first.time == stop.clock, !stop.firedOneAtClock else {
                    s.now = max(s.now, stop.clock)
                    stop.reached()
                    return nil
                }
                stop.firedOneAtClock = true
                s.stop = stop
                stop.reached()
            }
            s.entries.removeFirst()
            // A burst (100,000 events in flight in one step) leaves room for
            // all of them: give it back once most of it is free.
            if s.entries.capacity > Self.keptCapacity, s.entries.count < s.entries.capacity / 4 {
                var kept: [Entry] = []
                kept.reserveCapacity(s.entries.count)
                kept.append(contentsOf: s.entries)
                s.entries = kept
            }
            if first.kind.category == .inFlight { s.inFlightCount -= 1 }
            s.now = max(s.now, first.time)
            return (first.kind, first.fire)
        }
    }

    /// Moves the clock forward to `time` (never backwards).
    func move(to time: Instant) {
        state.withLock { $0.now = max($0.now, time) }
    }

    /// Makes time stop at `clock`: wake-ups due before it fire; at it, all of
    /// them (`firingAll`) or the first only, with `reached` called as it
    /// fires so that the work it starts waits; and when one due later would
    /// fire, the clock moves to `clock` (not before now) and `reached` is
    /// called instead. A replay stops an interrupted step where Ctrl-C
    /// stopped it when it was recorded.
    package func stop(at clock: Instant, firingAll: Bool, reached: @escaping @Sendable () -> Void) {
        state.withLock { $0.stop = Stop(clock: clock, firesAllAtClock: firingAll, reached: reached) }
    }

    /// Time no longer stops (``stop(at:firingAll:reached:)``).
    package func removeStop() {
        state.withLock { $0.stop = nil }
    }

    /// Makes the clock stop now if moving it to `target` passes the stop;
    /// returns whether it did.
    package func stopsBefore(_ target: Instant) -> Bool {
        state.withLock { s in
            guard let stop = s.stop, target > stop.clock else { return false }
            s.now = max(s.now, stop.clock)
            stop.reached()
            return true
        }
    }

    /// Pending wake-ups (time and kind, earliest first), for inspection.
    package var pending: [(time: Instant, kind: WaitKind)] {
        state.withLock { $0.entries.map { ($0.time, $0.kind) } }
    }
}

extension Array {
    /// The first index whose element satisfies `predicate`, assuming the
    /// array is partitioned (all non-matching elements first).
    func partitioningIndex(where predicate: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let mid = (low + high) / 2
            if predicate(self[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }
}
