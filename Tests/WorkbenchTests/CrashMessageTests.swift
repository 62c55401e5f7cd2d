import Testing

@testable import Workbench

/// A crash is a failure signature like any other (issue 29 §4): what it
/// says, taken the same way in every process, and a smaller script that
/// crashes otherwise is not taken for it.
@Suite struct CrashMessageTests {
    /// What a worker wrote before it died of a failed precondition: the
    /// message is the line before the stack trace, not its last frame.
    static let precondition = """
        chatbench/ExploreWorker.swift:40: Precondition failed: object 0x00005581f4b2c9e0 has no client
        Current stack trace:
        0    libswiftCore.so                    0x00007f587975f130 swift_reportError + 33
        13   chatbench                          0x00005642062996a1 <unavailable> + 2422433

        """

    @Test func theMessageIsTheLineBeforeTheStackTraceWithItsAddressesMadeStable() {
        #expect(
            CrashMessage.message(inStandardError: Self.precondition)
                == "chatbench/ExploreWorker.swift:40: Precondition failed: object 0x… has no client")
        let unowned = "Fatal error: Attempted to read an unowned reference but object 0x7f00 was already destroyed"
        #expect(
            CrashMessage.message(inStandardError: "note\n\(unowned)\n")
                == "Fatal error: Attempted to read an unowned reference but object 0x… was already destroyed")
        #expect(CrashMessage.message(inStandardError: "") == nil)
    }

    /// In-process stand-ins for a worker's crashes: `app restart` crashes
    /// one way after `clock advance 2s`, another way without it.
    static func crashes(_ lines: [String]) -> [Violation] {
        guard lines.contains("app restart") else { return [] }
        let message = lines.contains("clock advance 2s") ? "Fatal error: the clock ran backwards" : "Fatal error: no clock"
        return [Violation(invariant: .crash, detail: "the run crashed (signal 4 (SIGILL): \(message))")]
    }

    @Test func aScriptThatCrashesOtherwiseIsNotTheSameFailure() throws {
        let crash = Self.crashes(["clock advance 2s", "app restart"])
        #expect(
            Explorer.signature(of: crash)?.description
                == "no crash: the run crashed (signal 4 (SIGILL): Fatal error: the clock ran backwards)")
        #expect(Explorer.signature(of: crash) != Explorer.signature(of: Self.crashes(["app restart"])))
        // Without `clock advance 2s`, or with 1s, the script crashes another
        // way: the shrink keeps both lines. (It took `app restart` alone
        // when every crash was "no crash".)
        let lines = ["user set alice", "clock advance 2s", "app restart"]
        let result = try #require(try Shrinker().shrink(lines, check: Self.crashes))
        #expect(result.lines == ["clock advance 2s", "app restart"])
        #expect(result.signature == Explorer.signature(of: crash))
    }
}
