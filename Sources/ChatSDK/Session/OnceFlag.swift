internal import ChatCore

/// Makes a callback-based answer resume a continuation once at most.
final class OnceFlag: Sendable {
    private let flag = LockedValue(false)
    func set() -> Bool {
        flag.withLock { done in
            defer { done = true }
            return !done
        }
    }
}
