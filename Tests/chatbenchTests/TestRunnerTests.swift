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
        #expect(exit.status == 0, "xmllint (scripts/setup.sh installs it): \(said)")
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
                "FAIL \(files.url.path)/a-slow.chat\n  timed out: still running after 300ms of wall time (--timeout); the rest of the file did not run\n"
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

    @Test func helpListsOnlyOptionsThatApply() throws {
        let help = try ChatbenchBinary.run(["test", "--help"])
        #expect(help.status == 0)
        for option in ["--timeout", "--shard", "--junit", "--update", "--jobs", "--server"] {
            #expect(help.stdout.contains(option), "\(option)")
        }
        for option in ["--seed", "--db", "--no-record", "--name", "--bail"] {
            #expect(!help.stdout.contains(option), "\(option) does not apply to test")
        }
    }
}
