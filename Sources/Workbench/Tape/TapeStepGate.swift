import Synchronization

/// Holds back what the tape recorded in a step until the replay reaches
/// that step (``TapeTransport/beginStep(_:)``). Before the first step is
/// begun nothing is held back.
final class TapeStepGate: Sendable {
    private struct Waiter {
        var step: Int
        var continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var current: Int?
        var waiters: [Int: Waiter] = [:]
        /// Waits not resolved yet, registered or about to be.
        var open: Set<Int> = []
        /// Open waits cancelled before they were registered.
        var cancelled: Set<Int> = []
        var nextID = 0
    }

    private let state = Mutex(State())

    /// The step being replayed.
    var current: Int? { state.withLock { $0.current } }

    /// Step `number` starts: what waited for it (or an earlier one) goes on,
    /// in the order it began waiting.
    func begin(_ number: Int) {
        let ready = state.withLock { s -> [CheckedContinuation<Bool, Never>] in
            s.current = number
            let due = s.waiters.filter { $0.value.step <= number }.keys.sorted()
            s.open.subtract(due)
            return due.compactMap { s.waiters.removeValue(forKey: $0)?.continuation }
        }
        for continuation in ready { continuation.resume(returning: true) }
    }

    /// Waits until step `step` is begun (at once for nil, or when no step
    /// was begun yet); false when the task was cancelled instead.
    func wait(for step: Int?) async -> Bool {
        guard let step else { return !Task.isCancelled }
        let id = state.withLock { s in
            defer { s.nextID += 1 }
            s.open.insert(s.nextID)
            return s.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let answer: Bool? = state.withLock { s in
                    if s.cancelled.remove(id) != nil {
                        s.open.remove(id)
                        return false
                    }
                    guard let current = s.current, current < step else {
                        s.open.remove(id)
                        return true
                    }
                    s.waiters[id] = Waiter(step: step, continuation: continuation)
                    return nil
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            let waiter = state.withLock { s -> Waiter? in
                guard s.open.remove(id) != nil else { return nil }
                let waiter = s.waiters.removeValue(forKey: id)
                if waiter == nil { s.cancelled.insert(id) }
                return waiter
            }
            waiter?.continuation.resume(returning: false)
        }
    }
}
