import ChatTestSupport
import Foundation
import Testing

/// `chatbench test`: timeouts, shards, --update, its help, JUnit that CI accepts.
@Suite struct TestRunnerTests {
    /// A folder of .chat files: one passing, one failing, one skipped against a server.
    private func folder(_ files: [String: String]) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        for (name, text) in files {
            try text.write(to: folder.url.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return folder
    }

    static let passing = "> expect error == none\nok: error == none\n"
    static let failing = "> user set alice\nsomething else\n"

    @Test func junitIsValidAgainstJenkinsXunitSchema() throws {
        let files = try folder([
            "a.chat": "> user set alice\nuser alice set on client (no request)\n  [..] client.session → userSet(alice)\n",
            "b.chat": Self.failing,
            "c.chat": "# server-only: needs a server\n> clock\nclock [..]\n",
            "d.chat": "> nonsense\n",
        ])
        let report = files.url.appendingPathComponent("junit.xml").path
        let run = try ChatbenchBinary.run(["test", files.url.path, "--junit", report])
        #expect(run.status == 1)
        let schema = ChatbenchBinary.packageRoot.appendingPathComponent("Tests/chatbenchTests/Fixtures/junit-10.xsd").path
        let xmllint = Process()
        xmllint.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        xmllint.arguments = ["xmllint", "--noout", "--schema", schema, report]
        let errors = Pipe()
        xmllint.standardError = errors
        try xmllint.run()
        let exit = try xmllint.waitForExit()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(exit.status == 0, "xmllint (scripts/setup.sh --tests installs it): \(said)")
        #expect(said.contains("validates"))
    }

    @Test func aFileThatRunsTooLongFailsAndTheOthersGoOn() throws {
        let files = try folder([
            "a-slow.chat": "user set alice\nwatch conversations\nclock advance 3650d\n",
            "b-fast.chat": Self.passing,
        ])
        let run = try ChatbenchBinary.run(["test", files.url.path, "--timeout", "0.3", "--jobs", "1"])
        #expect(run.status == 1)
        #expect(
            run.stdout.contains(
                "FAIL \(files.url.path)/a-slow.chat\n  line 3: > clock advance 3650d\n"
                    + "    ran out of time: still running after 300ms of wall time (--timeout); the rest of the file did not run\n"
            ), "\(run.stdout)")
        #expect(run.stdout.hasSuffix("1 passed, 1 failed\n"))
    }

    @Test func shardsSplitAFolderByFileName() throws {
        let files = try folder(["a.chat": Self.passing, "b.chat": Self.passing, "c.chat": Self.failing])
        let first = try ChatbenchBinary.run(["test", files.url.path, "--shard", "1/2"])
        let second = try ChatbenchBinary.run(["test", files.url.path, "--shard", "2/2"])
        // Shard 1: a and c (c fails); shard 2: b.
        #expect(first.status == 1)
        #expect(first.stdout.hasSuffix("1 passed, 1 failed\n"), "\(first.stdout)")
        #expect(second.status == 0)
        #expect(second.stdout == "1 passed, 0 failed\n")
        let bad = try ChatbenchBinary.run(["test", files.url.path, "--shard", "3/2"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--shard must be K/N with 1 ≤ K ≤ N"))
    }

    @Test func updateExitsZeroWhenItRewroteTheFailures() throws {
        let files = try folder(["b.chat": Self.failing])
        let update = try ChatbenchBinary.run(["test", files.url.path, "--update"], environment: ["CI": ""])
        #expect(update.status == 0, "\(update.stdout)")
        #expect(update.stdout.contains("updated 1 file\n"))
        let again = try ChatbenchBinary.run(["test", files.url.path])
        #expect(again.status == 0)
    }

    /// `--annotations github`: a workflow command per failing step, at its
    /// line, before the usual report (issue 30 §3).
    @Test func githubAnnotationsNameTheFailingLine() throws {
        let files = try folder(["a.chat": Self.passing, "b.chat": "> clock\n[..]\n" + Self.failing])
        let run = try ChatbenchBinary.run(["test", files.url.path, "--annotations", "github"])
        #expect(run.status == 1)
        let path = files.url.path + "/b.chat"
        #expect(
            run.stdout.hasPrefix(
                "::error file=\(path),line=3,title=output differs at > user set alice::- something else%0A+ user alice set on client (no request)"
            ), "\(run.stdout)")
        #expect(run.stdout.contains("\nFAIL \(path)\n  line 3: > user set alice\n"))
        #expect(run.stdout.hasSuffix("1 passed, 1 failed\n"))
        let both = try ChatbenchBinary.run(["test", files.url.path, "--annotations", "github", "--json"])
        #expect(both.status == 2 && both.stderr.contains("--annotations prints beside the text report, not with --json"))
    }

    /// `--json`: each file's status, and its failing steps with their lines.
    @Test func jsonGivesStatusAndFailedSteps() throws {
        let files = try folder([
            "a.chat": Self.passing, "b.chat": Self.failing, "c.chat": "# server-only: needs a server\n> clock\nclock [..]\n",
        ])
        let run = try ChatbenchBinary.run(["test", files.url.path, "--json"])
        #expect(run.status == 1)
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        #expect(entries.map { $0["status"] as? String } == ["passed", "failed", "skipped"])
        #expect(entries.map { $0["passed"] as? Bool } == [true, false, true])
        #expect(entries[2]["skipped"] as? String == "needs a server")
        let step = try #require((entries[1]["failedSteps"] as? [[String: Any]])?.first)
        #expect(step["file"] as? String == files.url.path + "/b.chat")
        #expect(step["line"] as? Int == 1 && step["input"] as? String == "user set alice")
        #expect(step["expected"] as? [String] == ["something else"])
        #expect((step["found"] as? [String])?.first == "user alice set on client (no request)")
        #expect((entries[1]["failures"] as? [String])?.first == "  line 1: > user set alice")
    }

    /// docs/ci/'s GitHub workflow and GitLab CI job parse and have what each CI needs.
    @Test func ciExamplesAreValid() throws {
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        check.arguments = ["python3", ChatbenchBinary.packageRoot.appendingPathComponent("scripts/ci_files_check.py").path]
        let output = Pipe()
        check.standardOutput = output
        check.standardError = output
        try check.run()
        let exit = try check.waitForExit()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(exit.status == 0, "\(said)")
    }

    @Test func helpListsOnlyOptionsThatApply() throws {
        let help = try ChatbenchBinary.run(["test", "--help"])
        #expect(help.status == 0)
        for option in ["--timeout", "--shard", "--junit", "--update", "--jobs", "--server", "--annotations <format>"] {
            #expect(help.stdout.contains(option), "\(option)")
        }
        for option in ["--seed", "--db", "--no-record", "--name", "--bail"] {
            #expect(!help.stdout.contains(option), "\(option) does not apply to test")
        }
    }
}
