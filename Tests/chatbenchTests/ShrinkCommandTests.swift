import ChatTestSupport
import Foundation
import Testing

/// `chatbench shrink` on each kind of input (issue 29 §4): a transcript
/// that fails as a test, a recorded session (by id, name or `last`), a
/// bundle and an app's diagnostics file; what does not fail says so.
@Suite struct ShrinkCommandTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples")

    /// A session that ends with a failed expect, after steps it does not need.
    static let failing = """
        user set alice
        clock advance 10m
        start conversation
        watch items c1
        send c1 text hi
        net offline
        send c1 text two
        clock advance 5m
        expect m2.state == sent
        send c1 text three

        """

    /// The smallest transcript of `failing`: its inputs.
    static let minimal = [
        "user set alice", "start conversation", "send c1 text hi", "net offline", "send c1 text two", "expect m2.state == sent",
    ]

    static func inputs(_ path: String) throws -> [String] { inputs(text: try String(contentsOfFile: path, encoding: .utf8)) }

    static func inputs(text: String) -> [String] {
        text.split(separator: "\n").filter { $0.hasPrefix("> ") }.map { String($0.dropFirst(2)) }
    }

    @Test func aTranscriptWhoseOutputDiffersShrinksToATranscriptThatFailsTheSameWay() throws {
        let folder = try TemporaryFolder()
        let planted = folder.url.appendingPathComponent("planted.chat").path
        let text = try String(contentsOf: Self.examples.appendingPathComponent("06-sending.chat"), encoding: .utf8)
        try text.replacingOccurrences(of: "  [00:00:00.065] m2: toBeSent\n", with: "  [00:00:00.065] m2: failed\n")
            .write(toFile: planted, atomically: true, encoding: .utf8)
        let output = folder.url.appendingPathComponent("small.chat").path
        let shrink = try ChatbenchBinary.run(["shrink", planted, "-o", output])
        #expect(shrink.status == 0, "\(shrink.stderr)")
        #expect(shrink.stderr.hasPrefix("from 26 steps to 6 in "), "\(shrink.stderr)")
        let small = try String(contentsOfFile: output, encoding: .utf8)
        #expect(
            small.hasPrefix(
                """
                # seed: 1
                # shrunk from \(planted): output differs at > send c1 text "two": \
                expected "  [00:00:00.065] m2: failed", found "  [00:00:00.065] m2: toBeSent"

                """), "\(small)")
        #expect(
            try Self.inputs(output) == [
                "user set alice", "start conversation", "watch items c1", "send c1 text \"one\"", "net fail 1", "send c1 text \"two\"",
            ])
        let test = try ChatbenchBinary.run(["test", output])
        #expect(test.stdout.contains("line 27: > send c1 text \"two\""), "\(test.stdout)")
        #expect(test.stdout.contains("-   [00:00:00.065] m2: failed\n    +   [00:00:00.065] m2: toBeSent"), "\(test.stdout)")
    }

    @Test func aRecordedSessionAndItsBundleShrinkToTheSameTranscript() throws {
        let folder = try TemporaryFolder()
        let db = folder.url.appendingPathComponent("sessions.sqlite").path
        let script = folder.url.appendingPathComponent("failing.chat").path
        try Self.failing.write(toFile: script, atomically: true, encoding: .utf8)
        let run = try ChatbenchBinary.run(["run", script, "--db", db])
        #expect(run.status == 1, "\(run.stderr)")
        let output = folder.url.appendingPathComponent("small.chat").path
        let shrink = try ChatbenchBinary.run(["shrink", "last", "--db", db, "-o", output])
        #expect(shrink.status == 0, "\(shrink.stderr)")
        #expect(shrink.stdout.hasPrefix("shrunk session 1: from 10 steps to 6 in "), "\(shrink.stdout)")
        #expect(shrink.stdout.hasSuffix("; wrote \(output) (run it with: chatbench test \(output))\n"), "\(shrink.stdout)")
        #expect(try Self.inputs(output) == Self.minimal)
        let test = try ChatbenchBinary.run(["test", output])
        #expect(test.status == 1)
        #expect(test.stdout.contains("expect failed: m2.state == sent — expected == \"sent\", found \"toBeSent\""), "\(test.stdout)")

        let bundle = folder.url.appendingPathComponent("bug.chatbundle").path
        #expect(try ChatbenchBinary.run(["export", "1", "--db", db, "--bundle", bundle]).status == 0)
        let fromBundle = folder.url.appendingPathComponent("from-bundle.chat").path
        let shrinkBundle = try ChatbenchBinary.run(["shrink", bundle, "-o", fromBundle])
        #expect(shrinkBundle.status == 0, "\(shrinkBundle.stderr)")
        #expect(shrinkBundle.stdout.hasPrefix("shrunk session 1 of \(bundle): from 10 steps to 6 in "), "\(shrinkBundle.stdout)")
        #expect(try Self.inputs(fromBundle) == Self.minimal)
    }

    /// A session that made an app (`server app new KEY`: the key is a
    /// secret, W6) shrinks to a transcript that holds the key nowhere and
    /// names the app by one placeholder throughout, and that fails as a
    /// test the same way (issue 29's left item: the export had a
    /// placeholder where the key was typed; it runs, and so does its shrink).
    @Test func aSessionThatMadeAnAppShrinksToATestThatNamesItByOnePlaceholder() throws {
        let folder = try TemporaryFolder()
        let db = folder.url.appendingPathComponent("sessions.sqlite").path
        let script = """
            user set alice
            start conversation --id c-visit
            send c1 text "demo"
            clock advance 1m
            server app new key-of-the-second-app
            client new other --api-key key-of-the-second-app
            user set alice
            start conversation --id c-visit
            send c2 text "second"
            expect server.messages(c2) == 2
            """
        #expect(try ChatbenchBinary.run(["--db", db], input: script + "\n").status == 1)
        let output = folder.url.appendingPathComponent("small.chat").path
        let shrink = try ChatbenchBinary.run(["shrink", "last", "--db", db, "-o", output])
        #expect(shrink.status == 0, "\(shrink.stderr)")
        let small = try String(contentsOfFile: output, encoding: .utf8)
        #expect(!small.contains("key-of-the-second-app"), "\(small)")
        let inputs = Self.inputs(text: small)
        let made = try #require(inputs.first { $0.hasPrefix("server app new <secret#") }, "\(small)")
        let key = String(made.dropFirst("server app new ".count))
        #expect(inputs.contains("client new other --api-key \(key)"), "\(small)")
        #expect(inputs.last == "expect server.messages(c2) == 2")
        let test = try ChatbenchBinary.run(["test", output])
        #expect(test.status == 1)
        #expect(test.stdout.contains("expect failed: server.messages(c2) == 2 — expected == 2, found [\"m2\"]"), "\(test.stdout)")
    }

    @Test func whatDoesNotFailSaysSoNamingIt() throws {
        let folder = try TemporaryFolder()
        let db = folder.url.appendingPathComponent("sessions.sqlite").path
        let script = folder.url.appendingPathComponent("passing.chat").path
        try "user set alice\nstart conversation\nsend c1 text hi\nexpect m1.state == sent\n".write(
            toFile: script, atomically: true, encoding: .utf8)
        #expect(try ChatbenchBinary.run(["run", script, "--db", db, "--name", "fine"]).status == 0)
        let session = try ChatbenchBinary.run(["shrink", "fine", "--db", db])
        #expect(session.status == 1)
        #expect(
            session.stderr
                == "chatbench: session 1 \"fine\" does not fail: nothing to shrink (its transcript passes: it replays as recorded)\n",
            "\(session.stderr)")
        // The repository's field recording: the world takes its messages
        // through the states the device saw.
        let field = Self.examples.appendingPathComponent("field/support-ticket.sqlite").path
        let ticket = try ChatbenchBinary.run(["shrink", field])
        #expect(ticket.status == 1)
        #expect(
            ticket.stderr.hasSuffix("does not fail: nothing to shrink (its transcript passes: it replays as recorded)\n"),
            "\(ticket.stderr)")
        // A transcript that passes, and shows a line the world refuses.
        let transcript = Self.examples.appendingPathComponent("09-bad-input.chat").path
        let example = try ChatbenchBinary.run(["shrink", transcript])
        #expect(example.status == 1)
        #expect(example.stderr == "chatbench: \(transcript) does not fail: nothing to shrink\n", "\(example.stderr)")
        // What runs only against a server is not shrunk in the embedded world.
        let server = Self.examples.appendingPathComponent("60-server-mode.chat").path
        let serverOnly = try ChatbenchBinary.run(["shrink", server])
        #expect(serverOnly.status == 2)
        #expect(serverOnly.stderr.contains("runs only against a server"), "\(serverOnly.stderr)")
        let missing = try ChatbenchBinary.run(["shrink", "nosuch", "--db", db])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no session \"nosuch\""), "\(missing.stderr)")
    }
    /// Writes `inputs` as a transcript that passes (`test --update` fills
    /// in what each step prints, with CI unset), then plants `planted` in place of its
    /// last line.
    static func transcript(_ inputs: [String], planted: String, in folder: TemporaryFolder) throws -> String {
        let path = folder.url.appendingPathComponent("t.chat").path
        try inputs.map { "> \($0)\n" }.joined().write(toFile: path, atomically: true, encoding: .utf8)
        // `test --update` is refused when CI is set, as it is on CI itself.
        let update = try ChatbenchBinary.run(["test", "--update", path], environment: ["CI": ""])
        try #require(update.stdout.contains("updated 1 file"), "\(update.stdout)\(update.stderr)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: "> \(inputs.last!)\n", with: "> \(planted)\n").write(
            toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A transcript's trials run in a child process, as a script's: a
    /// step that crashes is the failure (here on purpose, through the
    /// worker's test-only variable), and the shrink keeps it. Before, the
    /// trials ran in shrink's own process and a crash ended the shrink.
    /// The crash's message names an address, another in each process: the
    /// signature has it as `0x…` (before, no smaller trial crashed "the
    /// same way", and the shrink kept all five steps).
    @Test func aTranscriptThatCrashesShrinksToTheStepThatCrashes() throws {
        let folder = try TemporaryFolder()
        let path = try Self.transcript(
            ["user set alice", "start conversation", "send c1 text hi", "app restart", "expect m1.state == sent"],
            planted: "expect m1.state == sent", in: folder)
        let shrink = try ChatbenchBinary.run(["shrink", path], environment: ["CHATBENCH_TEST_CRASH_ON_LINE": "app restart"])
        #expect(shrink.status == 0, "\(shrink.stderr)")
        #expect(shrink.stdout.contains("# shrunk from \(path): the step crashed (signal "), "\(shrink.stdout)")
        #expect(
            shrink.stdout.contains("object 0x…: CHATBENCH_TEST_CRASH_ON_LINE asked for a crash at \"app restart\")\n> app restart\n"),
            "\(shrink.stdout)")
        #expect(Self.inputs(text: shrink.stdout) == ["app restart"])
    }

    /// A trial that crashes fails another way than the transcript: it is
    /// not taken, and the shrink goes on (here `clock advance 1s`, tried
    /// for `clock advance 2s`, crashes; the 2s is kept).
    @Test func aTrialThatCrashesIsNotTakenAndTheShrinkGoesOn() throws {
        let folder = try TemporaryFolder()
        let path = try Self.transcript(
            ["user set alice", "clock advance 10m", "clock advance 2s", "expect clock.elapsed == \"10m2s\""],
            planted: "expect clock.elapsed == \"1s\"", in: folder)
        let shrink = try ChatbenchBinary.run(["shrink", path], environment: ["CHATBENCH_TEST_CRASH_ON_LINE": "clock advance 1s"])
        #expect(shrink.status == 0, "\(shrink.stderr)")
        #expect(shrink.stdout.contains("# shrunk from \(path): an expect failed: expect clock.elapsed == \"1s\""), "\(shrink.stdout)")
        #expect(Self.inputs(text: shrink.stdout) == ["clock advance 10m", "clock advance 2s", "expect clock.elapsed == \"1s\""])
    }
}
