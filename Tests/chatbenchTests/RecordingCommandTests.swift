import ChatTestSupport
import Foundation
import GRDB
import Testing
import Workbench

/// Recording, replay, sessions, export and test through the built binary
/// (SPEC W5–W10). Every run names its own database: nothing touches the home.
@Suite struct RecordingCommandTests {
    static let script = """
        user set alice
        watch conversations
        start conversation
        send c1 text "hi"
        agent say c1 "hello"
        expect m1.state == sent
        clock advance 1h

        """

    /// Records `script` into a fresh database; returns the folder and the database's path.
    private func record(name: String = "demo") throws -> (TemporaryFolder, String) {
        let folder = try TemporaryFolder()
        let db = folder.url.appendingPathComponent("sessions.sqlite").path
        let run = try ChatbenchBinary.run(["--db", db, "--name", name], input: Self.script)
        #expect(run.status == 0, "\(run.stderr)")
        return (folder, db)
    }

    @Test func aScriptIsRecordedListedAndShown() throws {
        let (_folder, db) = try record()
        _ = _folder
        let list = try ChatbenchBinary.run(["sessions", "--db", db])
        #expect(list.status == 0)
        let lines = list.stdout.split(separator: "\n")
        #expect(lines.first == "ID  NAME  STARTED                  STEPS  KIND    STATUS")
        #expect(lines.count == 2 && lines[1].hasPrefix(" 1  demo  ") && lines[1].hasSuffix("      7  script  ok"))
        let show = try ChatbenchBinary.run(["sessions", "show", "demo", "--db", db])
        #expect(show.status == 0)
        #expect(show.stdout.contains("#4 [00:00:00.045] > send c1 text \"hi\"\nm1 = text message in c1\n"))
        let timeline = try ChatbenchBinary.run(["sessions", "show", "1", "--timeline", "--db", db])
        #expect(timeline.stdout.contains("│────────── sendMessage ──────────▶│ ok"))
        #expect(timeline.stdout.contains("◆ w1 emits (fresh, refreshed) 0 conversations"))
        let tape = try ChatbenchBinary.run(["sessions", "show", "1", "--traffic", "--db", db])
        #expect(tape.status == 0)
        // The embedded world records its traffic too: the request, the agent's message pushed to the client.
        #expect(tape.stdout.contains("device-client  http → POST /v1/conversations/c-fb32555e/messages\n"), "\(tape.stdout)")
        #expect(tape.stdout.contains("device-client  ws   ← event #"))
        #expect(tape.stdout.contains("app-backend    http → agentSay(c-fb32555e, \"hello\")"))
        let json = try ChatbenchBinary.run(["sessions", "show", "1", "--traffic", "--json", "--db", db])
        #expect(json.stdout.contains("\"channel\" : \"ws\""))
    }

    /// `sessions list FILE` lists a recording database or a bundle named
    /// like `sessions show FILE` takes one (issue 30).
    @Test func sessionsListTakesAFile() throws {
        let (_folder, db) = try record()
        _ = _folder
        let list = try ChatbenchBinary.run(["sessions", "list", db])
        #expect(list.status == 0)
        #expect(list.stdout.split(separator: "\n").count == 2)
        let missing = try ChatbenchBinary.run(["sessions", "list", db + ".missing"])
        #expect(missing.status == 2 && missing.stderr.contains("no such file"))
        let both = try ChatbenchBinary.run(["sessions", "list", db, "--db", db])
        #expect(both.status != 0 && both.stderr.contains("not both"))
    }

    @Test func noRecordWritesNothing() throws {
        let folder = try TemporaryFolder()
        let db = folder.url.appendingPathComponent("sessions.sqlite").path
        let run = try ChatbenchBinary.run(["--db", db, "--no-record"], input: Self.script)
        #expect(run.status == 0)
        #expect(!FileManager.default.fileExists(atPath: db))
    }

    @Test func theDefaultDatabaseIsUnderXDGDataHome() throws {
        let folder = try TemporaryFolder()
        let data = folder.url.appendingPathComponent("data").path
        let run = try ChatbenchBinary.run(["run", "-"], input: "clock\n", environment: ["XDG_DATA_HOME": data])
        #expect(run.status == 0)
        #expect(FileManager.default.fileExists(atPath: data + "/chatbench/sessions.sqlite"))
    }

    @Test func replayIsIdenticalThenDivergesAfterTampering() throws {
        let (_folder, db) = try record()
        _ = _folder
        let same = try ChatbenchBinary.run(["replay", "demo", "--db", db])
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        #expect(same.stdout.hasPrefix("session 1 \"demo\": 7 steps replayed, identical (1h0.114s of virtual time in "))

        let store = try RecordingStore(path: db, create: false)
        try store.replaceSteps(
            of: 1,
            with: try store.steps(of: 1).map { step in
                var step = step
                if step.number == 4 { step.output = step.output.replacingOccurrences(of: "m1: sent", with: "m1: failed") }
                return step
            })
        let diverged = try ChatbenchBinary.run(["replay", "1", "--db", db])
        #expect(diverged.status == 1)
        #expect(diverged.stdout.hasPrefix("session 1 \"demo\" diverged at step 4: > send c1 text \"hi\"\n--- recorded\n+++ replayed\n"))
        #expect(diverged.stdout.contains("\n-   [00:00:00.087] m1: failed\n+   [00:00:00.087] m1: sent\n"))

        let updated = try ChatbenchBinary.run(["replay", "demo", "--update", "--db", db])
        #expect(updated.status == 0)
        #expect(updated.stdout.hasPrefix("session 1 \"demo\": re-recorded, 1 of 7 steps changed"))
        #expect(try ChatbenchBinary.run(["replay", "demo", "--db", db]).status == 0)
    }

    @Test func exportRunsAsATestAndABundleReplaysAnywhere() throws {
        let (folder, db) = try record()
        let transcript = folder.url.appendingPathComponent("demo.chat").path
        #expect(try ChatbenchBinary.run(["export", "demo", transcript, "--db", db]).status == 0)
        let test = try ChatbenchBinary.run(["test", transcript])
        #expect(test.status == 0)
        #expect(test.stdout == "1 passed, 0 failed\n")
        let run = try ChatbenchBinary.run(["run", transcript, "--no-record"])
        #expect(run.status == 0, "\(run.stderr)")

        let bundle = folder.url.appendingPathComponent("bug.sqlite").path
        #expect(try ChatbenchBinary.run(["export", "demo", "--bundle", bundle, "--db", db]).status == 0)
        try FileManager.default.removeItem(atPath: db)
        let replay = try ChatbenchBinary.run(["replay", bundle])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.contains("identical"))
    }

    @Test func testCommandReportsDiffsJUnitAndRefusesUpdateUnderCI() throws {
        let folder = try TemporaryFolder()
        let good = folder.url.appendingPathComponent("a-good.chat")
        let bad = folder.url.appendingPathComponent("b-bad.chat")
        try Data("> user set alice\nuser alice set on client (no request)\n...\n".utf8).write(to: good)
        try Data("> user set alice\nuser bob set on client (no request)\n...\n".utf8).write(to: bad)
        let junit = folder.url.appendingPathComponent("junit.xml").path
        let run = try ChatbenchBinary.run(["test", folder.url.path, "--jobs", "2", "--junit", junit])
        #expect(run.status == 1)
        #expect(
            run.stdout == """
                FAIL \(bad.path)
                  line 1: > user set alice
                    - user bob set on client (no request)
                      user alice set on client (no request)
                        [00:00:00.000] client.session → userSet(alice)
                1 passed, 1 failed

                """)
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("<testsuite name=\"chatbench\" tests=\"2\" failures=\"1\" errors=\"0\""))

        let refused = try ChatbenchBinary.run(["test", folder.url.path, "--update"], environment: ["CI": "true"])
        #expect(refused.status == 2)
        #expect(
            refused.stderr
                == "chatbench: test --update rewrites expected output and is refused when CI is set: run it locally and commit the result\n"
        )
        let updated = try ChatbenchBinary.run(["test", folder.url.path, "--update"], environment: ["CI": ""])
        #expect(updated.stdout.hasSuffix("updated 1 file\n1 passed, 1 failed\n"))
        #expect(try ChatbenchBinary.run(["test", folder.url.path]).status == 0)
    }

    @Test func malformedTranscriptIsAnErrorWithItsLine() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("bad.chat")
        try Data("clock\n> clock\n".utf8).write(to: file)
        let run = try ChatbenchBinary.run(["test", file.path])
        #expect(run.status == 1)
        #expect(run.stdout.hasPrefix("ERROR \(file.path):1: \"clock\" comes before the first `> ` input"))
        let direct = try ChatbenchBinary.run(["run", file.path, "--no-record"])
        #expect(direct.status == 2)
        #expect(direct.stderr.hasPrefix("chatbench: \(file.path):1: "))
    }

    @Test func badDatabasesAreClearErrors() throws {
        let folder = try TemporaryFolder()
        let corrupt = folder.url.appendingPathComponent("corrupt.sqlite").path
        try Data(String(repeating: "garbage ", count: 500).utf8).write(to: URL(fileURLWithPath: corrupt))
        let run = try ChatbenchBinary.run(["--db", corrupt], input: "clock\n")
        #expect(run.status == 2)
        #expect(
            run.stderr
                == "chatbench: \(corrupt) is not a usable SQLite database (damaged, or not a database at all): move it away, or pass --db with another path (or --no-record to run without recording)\n"
        )

        let (_folder, db) = try record()
        _ = _folder
        let queue = try DatabaseQueue(path: db)
        try queue.write { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v13')") }
        try queue.close()
        let newer = try ChatbenchBinary.run(["sessions", "--db", db])
        #expect(newer.status == 2)
        #expect(newer.stderr.contains("was written by a newer chatbench (schema v13; this one knows up to v12): upgrade chatbench"))

        let missing = try ChatbenchBinary.run(["replay", "3", "--db", folder.url.appendingPathComponent("none.sqlite").path])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no recording database at"))
    }

    @Test func severalProcessesRecordIntoOneDatabaseAtOnce() throws {
        let folder = try TemporaryFolder()
        let db = folder.url.appendingPathComponent("shared.sqlite").path
        let lines = String(repeating: "clock\nnet latency 10ms\n", count: 40)
        let processes = try (0..<4).map { index -> (Process, URL) in
            let process = Process()
            process.executableURL = try ChatbenchBinary.url()
            process.arguments = ["--db", db, "--name", "p\(index)"]
            let input = folder.url.appendingPathComponent("in\(index)")
            let errors = folder.url.appendingPathComponent("err\(index)")
            try Data(lines.utf8).write(to: input)
            _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
            process.standardInput = try FileHandle(forReadingFrom: input)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: errors)
            process.environment = ["XDG_STATE_HOME": folder.url.path, "XDG_DATA_HOME": folder.url.path]
            return (process, errors)
        }
        for (process, _) in processes { try process.run() }
        for (process, errors) in processes {
            let exit = try process.waitForExit()
            let stderr = try String(contentsOf: errors, encoding: .utf8)
            #expect(exit.status == 0 && !exit.signaled, "\(stderr)")
            #expect(!stderr.contains("locked"))
        }
        let sessions = try RecordingStore(path: db, create: false).sessions()
        #expect(sessions.count == 4)
        #expect(sessions.allSatisfy { $0.stepCount == 80 && $0.ended != nil })
    }

    @Test func aKilledProcessKeepsEveryCompletedStep() throws {
        let folder = try TemporaryFolder()
        let db = folder.url.appendingPathComponent("sessions.sqlite").path
        let process = Process()
        process.executableURL = try ChatbenchBinary.url()
        process.arguments = ["--db", db, "--name", "killed"]
        process.environment = ["XDG_STATE_HOME": folder.url.path, "XDG_DATA_HOME": folder.url.path]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let lines = ["user set alice", "watch conversations", "start conversation"]
        input.fileHandleForWriting.write(Data(lines.map { $0 + "\n" }.joined().utf8))
        // Wait until the three steps are committed, then kill -9 mid-session.
        let deadline = Date().addingTimeInterval(30)
        var committed = 0
        while Date() < deadline {
            if FileManager.default.fileExists(atPath: db),
                let store = try? RecordingStore(path: db, create: false),
                let session = try? store.session("killed")
            {
                committed = session.stepCount
                if committed == lines.count { break }
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(committed == lines.count)
        kill(process.processIdentifier, SIGKILL)
        #expect(try process.waitForExit() == ChildExit(status: SIGKILL, signaled: true))

        let show = try ChatbenchBinary.run(["sessions", "show", "killed", "--db", db])
        #expect(show.status == 0)
        for line in lines { #expect(show.stdout.contains("> \(line)\n")) }
        #expect(show.stdout.hasPrefix("session 1 \"killed\": "))
        #expect(show.stdout.contains("3 steps, ok, unfinished"))
        #expect(try ChatbenchBinary.run(["replay", "killed", "--db", db]).status == 0)
    }
}
