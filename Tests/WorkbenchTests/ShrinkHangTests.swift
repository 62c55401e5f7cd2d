import Synchronization
import Testing

@testable import Workbench

/// A hang is a time limit passed, and a loaded machine's slow run passes it
/// too (issue 29 §4: explore over every example, on a loaded machine, kept
/// `clock advance 182d` alone as "the run hung", a line that runs in 0.3 s):
/// what shrinking found hanging is tried once more before it is kept.
@Suite struct ShrinkHangTests {
    static let hang = [Violation(invariant: .hang, detail: "the run hung (no answer within 1m (killed))")]

    /// A stand-in for a worker: the script hangs while it holds both
    /// `watch conversations` and `clock advance 365d`; `slow` scripts pass
    /// the limit the first time they are tried (the machine was busy), and
    /// not after.
    final class Trials: Sendable {
        private let tried = Mutex<Set<[String]>>([])
        let slow: Set<[String]>

        init(slow: Set<[String]>) { self.slow = slow }

        func check(_ lines: [String]) -> [Violation] {
            let first = tried.withLock { $0.insert(lines).inserted }
            if first && slow.contains(lines) { return ShrinkHangTests.hang }
            return lines.contains("watch conversations") && lines.contains("clock advance 365d") ? ShrinkHangTests.hang : []
        }
    }

    static let script = ["user set alice", "watch conversations", "net latency 637ms", "clock advance 365d"]

    @Test func aHangFoundOnTheWayIsTriedOnceMoreBeforeItIsKept() throws {
        // Removing the first half is slow once: without the check, the
        // shrink would keep a script that does not hang.
        let trials = Trials(slow: [["net latency 637ms", "clock advance 365d"]])
        let result = try #require(try Shrinker().shrink(Self.script, check: trials.check))
        #expect(result.confirmed)
        #expect(result.lines == ["watch conversations", "clock advance 365d"])
        #expect(trials.check(result.lines) == Self.hang)
    }

    @Test func whenNothingSmallerHangsAgainTheScriptIsKeptAsGivenAndSaysSo() throws {
        // The script hangs; every smaller one only the first time it is
        // tried (a busy machine), never again.
        let tried = Mutex<Set<[String]>>([])
        let result = try #require(
            try Shrinker().shrink(Self.script) { lines in
                lines == Self.script || tried.withLock { $0.insert(lines).inserted } ? Self.hang : []
            })
        #expect(!result.confirmed)
        #expect(result.lines == Self.script)
    }

    /// A failure that does not depend on time is not tried again: the
    /// trial count of a deterministic shrink is what it was.
    @Test func anExpectsFailureIsNotTriedAgain() throws {
        var calls = 0
        let lines = ["user set alice", "clock advance 2s", "expect x == 1"]
        let result = try #require(
            try Shrinker().shrink(lines) { candidate in
                calls += 1
                return candidate.contains("expect x == 1") ? [Violation(invariant: .expects, detail: "x is 0")] : []
            })
        #expect(result.confirmed)
        #expect(result.lines == ["expect x == 1"])
        #expect(result.trials == calls)
    }
}
