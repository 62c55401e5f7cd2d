import ChatTestSupport
import Foundation
import Testing
import Workbench

/// `chatbench explore --timeout SECONDS` (issue 29 §5): a run still running
/// after it is killed and fails `no hang` like any invariant (the table,
/// `--junit`, a saved and shrunk script), and the exploration goes on and
/// ends (here a worker hangs on purpose, through its test-only variable, a
/// stand-in for a deadlock in the SDK). Before, a run that hung stalled
/// explore for ever.
@Suite struct ExploreTimeLimitTests {
    static let hangy = "user set alice\nstart conversation\nsend c1 text hi\nclock advance 1s\n"

    /// Each run whose faults include `app restart` hangs: those fail
    /// `no hang`, the others are the runs an exploration where nothing
    /// hangs makes, with the same seeds and the same failures.
    @Test func aRunThatHangsFailsNoHangAndTheExplorationEnds() throws {
        let folder = try TemporaryFolder()
        func path(_ name: String) -> String { folder.url.appendingPathComponent(name).path }
        try Self.hangy.write(toFile: path("hangy.chat"), atomically: true, encoding: .utf8)
        func explore(_ name: String, hang: Bool) throws -> ChatbenchBinary.Run {
            try ChatbenchBinary.run(
                [
                    "explore", path("hangy.chat"), "--runs", "6", "--faults", "restart,drop", "--jobs", "2", "--timeout", "5",
                    "--out", path(name), "--junit", path("\(name).xml"), "--report", path("\(name).json"),
                ], environment: hang ? ["CHATBENCH_TEST_HANG_ON_LINE": "app restart"] : [:])
        }
        let started = ContinuousClock.now
        let hung = try explore("hung", hang: true)
        #expect(ContinuousClock.now - started < .seconds(300))
        #expect(hung.status == 1, "\(hung.stdout)\(hung.stderr)")
        #expect(hung.stdout.hasPrefix("explore \(path("hangy.chat")): 6 runs in "), "\(hung.stdout)")
        #expect(hung.stdout.contains("\nno hang                                "), "\(hung.stdout)")
        let xml = try String(contentsOfFile: path("hung.xml"), encoding: .utf8)
        #expect(xml.contains("<failure message=\"a run hung in "), "\(xml)")
        #expect(xml.contains(": the run hung (no answer within 5s (killed))"), "\(xml)")
        let saved = try FileManager.default.contentsOfDirectory(atPath: path("hung"))
        let full = try #require(saved.first { !$0.hasSuffix("-shrunk.chat") })
        #expect(
            try String(contentsOfFile: path("hung/\(full)"), encoding: .utf8).contains(
                "# violated: no hang: the run hung (no answer within 5s (killed))\n"))
        let shrunk = try #require(saved.first { $0.hasSuffix("-shrunk.chat") })
        let lines = try String(contentsOfFile: path("hung/\(shrunk)"), encoding: .utf8).split(separator: "\n")
        #expect(lines.filter { !$0.hasPrefix("#") } == ["app restart"], "\(lines)")

        // The same runs with nothing hanging: those that did not hang failed
        // as they fail here, those that hung are the ones with the line.
        let calm = try explore("calm", hang: false)
        #expect(!calm.stdout.contains("no hang"), "\(calm.stdout)")
        func failing(_ name: String) throws -> [Explorer.Run] {
            let report = try JSONDecoder().decode(ExploreShardReport.self, from: Data(contentsOf: URL(fileURLWithPath: path(name))))
            return report.files[0].failing
        }
        let hanging = try failing("hung.json").filter { $0.violations.first?.invariant == .hang }
        #expect(!hanging.isEmpty && hanging.count < 6)
        #expect(hanging.allSatisfy { $0.lines.contains("app restart") && $0.violations.count == 1 })
        let others = try failing("hung.json").filter { $0.violations.first?.invariant != .hang }
        #expect(try failing("calm.json").filter { !$0.lines.contains("app restart") } == others)
    }

    /// A file whose runs hang does not change what the other files find:
    /// the same summary (but for times), table rows, saved scripts and
    /// JUnit test case as when the other file is explored alone.
    @Test func theOtherFilesRunsAreUnaffected() throws {
        let folder = try TemporaryFolder()
        func path(_ name: String) -> String { folder.url.appendingPathComponent(name).path }
        try "user set alice\nclock advance 7s\n".write(toFile: path("hangy.chat"), atomically: true, encoding: .utf8)
        try ExploreCommandTests.fragile.write(toFile: path("fragile.chat"), atomically: true, encoding: .utf8)
        func explore(_ files: [String], _ name: String) throws -> ChatbenchBinary.Run {
            try ChatbenchBinary.run(
                ["explore"] + files.map(path) + [
                    "--runs", "6", "--faults", "offline,fail", "--jobs", "2", "--timeout", "5", "--out", path(name), "--junit",
                    path("\(name).xml"),
                ], environment: ["CHATBENCH_TEST_HANG_ON_LINE": "clock advance 7s"])
        }
        let started = ContinuousClock.now
        let both = try explore(["hangy.chat", "fragile.chat"], "both")
        #expect(ContinuousClock.now - started < .seconds(300))
        let alone = try explore(["fragile.chat"], "alone")
        #expect(both.status == 1, "\(both.stdout)\(both.stderr)")
        #expect(both.stdout.contains("no hang                                6     0          \(path("hangy.chat"))\n"), "\(both.stdout)")
        func about(_ output: String, _ file: String) -> [String] {
            output.split(separator: "\n").map(String.init).filter { $0.hasSuffix(" \(path(file))") || $0.contains(path(file) + ":") }
                .map { $0.replacing(#/ in [0-9.]+ s \([0-9.]+ runs/s\)/#, with: "") }
        }
        #expect(!about(alone.stdout, "fragile.chat").isEmpty)
        #expect(about(both.stdout, "fragile.chat") == about(alone.stdout, "fragile.chat"), "\(both.stdout)\n\(alone.stdout)")
        let savedAlone = try FileManager.default.contentsOfDirectory(atPath: path("alone")).sorted()
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: path("both")).filter { $0.hasPrefix("fragile-") }.sorted() == savedAlone)
        for name in savedAlone {
            #expect(
                try String(contentsOfFile: path("both/\(name)"), encoding: .utf8)
                    == String(contentsOfFile: path("alone/\(name)"), encoding: .utf8), "\(name)")
        }
        // fragile.chat is the last file of both: its test case to the end.
        func testCase(_ name: String) throws -> String {
            let xml = try String(contentsOfFile: path(name), encoding: .utf8).replacing(/time="[0-9.]+"/, with: "")
            return String(xml[try #require(xml.range(of: "<testcase name=\"fragile.chat\"")).lowerBound...])
        }
        #expect(try testCase("both.xml") == testCase("alone.xml"))
    }

    /// A limit that is no number of seconds is refused in one line naming
    /// it: negative, not a number, infinite (which crashed shrink).
    @Test func aBadTimeoutIsRefused() throws {
        for (command, value, said) in [
            ("explore", "-1", "got -1.0"), ("explore", "nan", "got nan"), ("explore", "inf", "got inf"), ("shrink", "inf", "got inf"),
            ("shrink", "nan", "got nan"),
        ] {
            let run = try ChatbenchBinary.run([command, "x.chat", "--timeout=\(value)"])
            #expect(run.status == 2, "\(command) \(value): \(run.stderr)")
            #expect(
                run.stderr.hasPrefix("Error: --timeout must be 0 (no limit) or a number of seconds, \(said)\n"),
                "\(command) \(value): \(run.stderr)")
        }
        let word = try ChatbenchBinary.run(["explore", "x.chat", "--timeout", "soon"])
        #expect(word.status == 2, "\(word.stderr)")
        #expect(word.stderr.hasPrefix("Error: The value 'soon' is invalid for '--timeout <seconds>'\n"), "\(word.stderr)")
    }
}
