import ChatTestSupport
import Foundation
import Testing

/// `chatbench shrink --timeout SECONDS` (issue 29 §4): a trial still
/// running after it is killed and fails as a hang, so a shrink ends
/// whatever its trials do (here a worker hangs on purpose, through its
/// test-only variable, a stand-in for a deadlock in the SDK). Before, a
/// trial that hung hung the shrink.
@Suite struct ShrinkTimeLimitTests {
    /// A smaller trial that hangs fails another way than the transcript:
    /// it is not taken, and the shrink goes on to the same result as when
    /// nothing hangs (`clock advance 1s`, tried for 2s, hangs).
    @Test func aTrialThatHangsIsKilledAndNotTaken() throws {
        let folder = try TemporaryFolder()
        let path = try ShrinkCommandTests.transcript(
            ["user set alice", "clock advance 10m", "clock advance 2s", "expect clock.elapsed == \"10m2s\""],
            planted: "expect clock.elapsed == \"1s\"", in: folder)
        let started = ContinuousClock.now
        let shrink = try ChatbenchBinary.run(
            ["shrink", path, "--timeout", "5"], environment: ["CHATBENCH_TEST_HANG_ON_LINE": "clock advance 1s"])
        #expect(shrink.status == 0, "\(shrink.stderr)")
        #expect(shrink.stdout.contains("# shrunk from \(path): an expect failed: expect clock.elapsed == \"1s\""), "\(shrink.stdout)")
        #expect(
            ShrinkCommandTests.inputs(text: shrink.stdout) == ["clock advance 10m", "clock advance 2s", "expect clock.elapsed == \"1s\""])
        #expect(ContinuousClock.now - started < .seconds(120))
    }

    /// A transcript whose step hangs shrinks to that step, its failure the hang.
    @Test func aTranscriptThatHangsShrinksToTheStepThatHangs() throws {
        let folder = try TemporaryFolder()
        let path = try ShrinkCommandTests.transcript(
            ["user set alice", "start conversation", "app restart", "expect c1.local == true"], planted: "expect c1.local == false",
            in: folder)
        let shrink = try ChatbenchBinary.run(
            ["shrink", path, "--timeout", "5"], environment: ["CHATBENCH_TEST_HANG_ON_LINE": "app restart"])
        #expect(shrink.status == 0, "\(shrink.stderr)")
        #expect(shrink.stdout.contains("# shrunk from \(path): the step hung (no answer within 5s (killed))\n"), "\(shrink.stdout)")
        #expect(ShrinkCommandTests.inputs(text: shrink.stdout) == ["app restart"])
    }

    /// A script's trial that hangs breaks "no hang".
    @Test func aScriptThatHangsShrinksToTheLineThatHangs() throws {
        let folder = try TemporaryFolder()
        let script = folder.url.appendingPathComponent("hang.chat").path
        try "user set alice\nclock\napp restart\nclock\n".write(toFile: script, atomically: true, encoding: .utf8)
        let shrink = try ChatbenchBinary.run(
            ["shrink", script, "--timeout", "5"], environment: ["CHATBENCH_TEST_HANG_ON_LINE": "app restart"])
        #expect(shrink.status == 0, "\(shrink.stderr)")
        #expect(shrink.stdout.contains("# shrunk from \(script): no hang\napp restart\n"), "\(shrink.stdout)")
        let negative = try ChatbenchBinary.run(["shrink", script, "--timeout=-1"])
        #expect(negative.status == 2, "\(negative.stderr)")
        #expect(negative.stderr.contains("--timeout must be 0 (no limit) or a number of seconds, got -1.0"), "\(negative.stderr)")
    }
}
