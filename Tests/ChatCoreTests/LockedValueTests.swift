import Testing

@testable import ChatCore

/// The package's own lock (in place of `Mutex`, for the SDK's platform
/// floor): it hands the value to its body, returns the body's result, rethrows
/// its error, and keeps concurrent updates whole.
@Suite struct LockedValueTests {
    @Test func withLockReadsAndWritesTheValue() {
        let locked = LockedValue([1])
        let count = locked.withLock { values in
            values.append(2)
            return values.count
        }
        #expect(count == 2)
        #expect(locked.withLock { $0 } == [1, 2])
    }

    struct Refused: Error, Equatable {}

    @Test func aThrownErrorLeavesTheLockUsable() {
        let locked = LockedValue(0)
        #expect(throws: Refused()) {
            try locked.withLock { value in
                value = 1
                throw Refused()
            }
        }
        #expect(locked.withLock { $0 } == 1)
    }

    @Test func concurrentIncrementsAreNotLost() async {
        let locked = LockedValue(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<1_000 { locked.withLock { $0 += 1 } }
                }
            }
        }
        #expect(locked.withLock { $0 } == 8_000)
    }
}
