import ChatTestSupport
import Foundation
import Synchronization
import Testing
import Workbench

@testable import chatbench

/// `chatbench explore` and `chatbench shrink` as a user runs them.
@Suite struct ExploreCommandTests {
    static let fragile = "user set alice\nstart conversation\nsend c1 text hi\nexpect m1.state == sent\n"

    @Test func exploreFindsSavesAndShrinksAFailureThatRunReproduces() throws {
        let folder = try TemporaryFolder()
        let script = folder.url.appendingPathComponent("fragile.chat")
        try Self.fragile.write(to: script, atomically: true, encoding: .utf8)
        let out = folder.url.appendingPathComponent("failures").path
        let junit = folder.url.appendingPathComponent("explore.xml").path
        let explore = try ChatbenchBinary.run([
            "explore", script.path, "--runs", "30", "--faults", "offline", "--out", out, "--jobs", "2", "--junit", junit,
        ])
        #expect(explore.status == 1, "\(explore.stdout)\(explore.stderr)")
        #expect(explore.stdout.contains("the script's expects"))
        // Not a terminal: plain progress lines, at each tenth of the runs.
        let progress = explore.stderr.split(separator: "\n").filter { $0.hasPrefix("explore \(script.path): ") }
        #expect(progress.count == 9, "\(explore.stderr)")
        #expect(progress.first?.hasPrefix("explore \(script.path): 3/30 runs, ") == true, "\(explore.stderr)")
        #expect(!explore.stderr.contains("\u{1B}"))
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("<testcase name=\"fragile.chat\""), "\(xml)")
        #expect(xml.contains("<failure message=\"an expect failed in "), "\(xml)")
        let saved = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(saved.count == 2, "\(saved)")
        let shrunk = try #require(saved.first { $0.hasSuffix("-shrunk.chat") })
        let text = try String(contentsOfFile: "\(out)/\(shrunk)", encoding: .utf8)
        #expect(text.split(separator: "\n").filter { !$0.hasPrefix("#") }.count <= 5, "\(text)")
        let rerun = try ChatbenchBinary.run(["run", "\(out)/\(shrunk)"])
        #expect(rerun.status == 1, "the saved script fails the same way: \(rerun.stdout)")
    }

    /// A failure and its shrunk script are saved in `--out` whatever its
    /// name: the shrunk one's name was the saved one's path with every
    /// `.chat` in it made `-shrunk.chat`, the folder's too (`runs.chat.d`
    /// became `runs-shrunk.chat.d`, which did not exist, and nothing was saved).
    @Test func anOutFolderWhoseNameHasDotChatKeepsItsName() throws {
        let folder = try TemporaryFolder()
        let script = folder.url.appendingPathComponent("fragile.chat")
        try Self.fragile.write(to: script, atomically: true, encoding: .utf8)
        let out = folder.url.appendingPathComponent("runs.chat.d").path
        let explore = try ChatbenchBinary.run(["explore", script.path, "--runs", "30", "--faults", "offline", "--out", out, "--jobs", "2"])
        #expect(explore.status == 1, "\(explore.stdout)\(explore.stderr)")
        let saved = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        let full = try #require(saved.first { !$0.hasSuffix("-shrunk.chat") }, "\(saved)")
        #expect(full.hasPrefix("fragile-seed1-run") && full.hasSuffix(".chat"))
        #expect(Set(saved) == [full, String(full.dropLast(".chat".count)) + "-shrunk.chat"], "\(saved)")
        #expect(explore.stdout.contains("\n  saved \(out)/\(full)\n"), "\(explore.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["fragile.chat", "runs.chat.d"])
    }

    /// Both names of a saved failure are made from its stem, whatever it holds.
    @Test func aSavedFailuresNamesAreMadeFromItsStem() {
        let failure = ExploreShardReport.SavedFailure(run: 3, stem: "v1.chat.old-seed1-run3", script: "x", shrunk: "y")
        #expect(failure.name == "v1.chat.old-seed1-run3.chat")
        #expect(failure.shrunkName == "v1.chat.old-seed1-run3-shrunk.chat")
    }

    /// Two shards of an exploration, merged, are the unsharded exploration:
    /// the same table, JUnit report (but for times) and saved failures.
    /// A folder with no script is a usage error, as for `test`: explore
    /// used to print nothing and exit 0, which reads as "no failure".
    @Test func aFolderWithNoScriptIsRefusedNotExploredQuietly() throws {
        let folder = try TemporaryFolder()
        let run = try ChatbenchBinary.run(["explore", folder.url.path, "--runs", "1"])
        #expect(run.status == 2 && run.stdout.isEmpty)
        #expect(run.stderr == "chatbench: no .chat files in \(folder.url.path)\n", "\(run.stderr)")
    }

    @Test func twoShardsMergedEqualOneRun() throws {
        let folder = try TemporaryFolder()
        let script = folder.url.appendingPathComponent("fragile.chat")
        try Self.fragile.write(to: script, atomically: true, encoding: .utf8)
        func path(_ name: String) -> String { folder.url.appendingPathComponent(name).path }
        func explore(_ name: String, _ extra: [String]) throws -> ChatbenchBinary.Run {
            try ChatbenchBinary.run(
                [
                    "explore", script.path, "--runs", "30", "--faults", "offline", "--jobs", "2", "--out", path(name), "--report",
                    path("\(name).json"),
                ]
                    + extra)
        }
        let whole = try explore("whole", ["--junit", path("whole.xml")])
        #expect(whole.status == 1, "\(whole.stdout)\(whole.stderr)")
        let first = try explore("s1", ["--shard", "1/2"])
        let second = try explore("s2", ["--shard", "2/2"])
        #expect(first.stdout.contains("(shard 1/2): 15 runs"), "\(first.stdout)")
        #expect(second.stdout.contains("(shard 2/2): 15 runs"), "\(second.stdout)")
        let merged = try ChatbenchBinary.run([
            "explore", "--merge", path("s2.json"), path("s1.json"), "--junit", path("merged.xml"), "--out", path("merged"),
        ])
        #expect(merged.status == 1, "\(merged.stdout)\(merged.stderr)")
        func table(_ output: String) -> String { String(output[output.range(of: "\nINVARIANT")!.lowerBound...]) }
        #expect(whole.stdout.contains("\nINVARIANT") && table(merged.stdout) == table(whole.stdout), "\(merged.stdout)")
        #expect(merged.stdout.hasPrefix("explore \(script.path): 30 runs in 2 shards ("), "\(merged.stdout)")
        func withoutTimes(_ file: String) throws -> String {
            try String(contentsOfFile: file, encoding: .utf8).replacingOccurrences(
                of: #"time="[0-9.]+""#, with: "", options: .regularExpression)
        }
        #expect(try withoutTimes(path("merged.xml")) == withoutTimes(path("whole.xml")))
        let saved = try FileManager.default.contentsOfDirectory(atPath: path("whole")).sorted()
        #expect(!saved.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: path("merged")).sorted() == saved)
        for name in saved {
            #expect(
                try String(contentsOfFile: path("merged/\(name)"), encoding: .utf8)
                    == String(contentsOfFile: path("whole/\(name)"), encoding: .utf8), "\(name)")
        }
        let missing = try ChatbenchBinary.run(["explore", "--merge", path("s1.json")])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("shard 2/2 is missing"), "\(missing.stderr)")
        let other = try ChatbenchBinary.run(["explore", "--merge", path("s1.json"), path("whole.json")])
        #expect(other.stderr.contains("of another exploration"), "\(other.stderr)")
    }

    @Test func shrinkSaysHowFarItGotAndAPassingScriptHasNothingToShrink() throws {
        let folder = try TemporaryFolder()
        let script = folder.url.appendingPathComponent("failing.chat")
        try ("clock\nclock\n" + "user set alice\nstart conversation\nnet offline\nsend c1 text hi\nexpect m1.state == sent\nclock\n")
            .write(to: script, atomically: true, encoding: .utf8)
        let output = folder.url.appendingPathComponent("small.chat").path
        let shrink = try ChatbenchBinary.run(["shrink", script.path, "-o", output])
        #expect(shrink.status == 0, "\(shrink.stderr)")
        #expect(shrink.stderr.hasPrefix("from 8 lines to "), "\(shrink.stderr)")
        let passing = folder.url.appendingPathComponent("passing.chat")
        try "user set alice\n".write(to: passing, atomically: true, encoding: .utf8)
        let none = try ChatbenchBinary.run(["shrink", passing.path])
        #expect(none.status == 1)
        #expect(none.stderr.contains("does not fail"))
    }

    /// A run that crashes (here on purpose, through the worker's test-only
    /// variable, in each run whose faults include `app restart`) fails
    /// "no crash"; the others go on; the result is the same with one job
    /// or two, byte for byte.
    @Test func aCrashFailsItsRunAndTheExplorationGoesOn() throws {
        let folder = try TemporaryFolder()
        let script = folder.url.appendingPathComponent("crashy.chat")
        try "user set alice\nstart conversation\nsend c1 text hi\nclock advance 1s\n".write(to: script, atomically: true, encoding: .utf8)
        var saved: [[String: String]] = []
        var summaries: [String] = []
        for jobs in ["1", "2"] {
            let out = folder.url.appendingPathComponent("failures-\(jobs)").path
            let explore = try ChatbenchBinary.run(
                ["explore", script.path, "--runs", "12", "--faults", "restart,drop", "--out", out, "--jobs", jobs],
                environment: ["CHATBENCH_TEST_CRASH_ON_LINE": "app restart"])
            #expect(explore.status == 1, "\(explore.stdout)\(explore.stderr)")
            let summary = try #require(explore.stdout.split(separator: "\n").first)
            #expect(summary.hasPrefix("explore \(script.path): 12 runs in "), "\(explore.stdout)")
            #expect(explore.stdout.contains("\nno crash "), "\(explore.stdout)")
            summaries.append(explore.stdout.split(separator: "\n").dropFirst().filter { !$0.hasPrefix("  saved ") }.joined(separator: "\n"))
            let files = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
            saved.append(
                Dictionary(uniqueKeysWithValues: try files.map { ($0, try String(contentsOfFile: "\(out)/\($0)", encoding: .utf8)) }))
        }
        #expect(saved[0] == saved[1])
        #expect(summaries[0] == summaries[1])
        let full = try #require(saved[0].first { !$0.key.hasSuffix("-shrunk.chat") }?.value)
        #expect(full.contains("# violated: no crash: the run crashed (signal "), "\(full)")
        #expect(full.contains("CHATBENCH_TEST_CRASH_ON_LINE asked for a crash"), "\(full)")
        let shrunk = try #require(saved[0].first { $0.key.hasSuffix("-shrunk.chat") }?.value)
        #expect(shrunk.split(separator: "\n").filter { !$0.hasPrefix("#") } == ["app restart"], "\(shrunk)")
    }

    @Test func shrinkKeepsACrashAsItsFailure() throws {
        let folder = try TemporaryFolder()
        let script = folder.url.appendingPathComponent("crash.chat")
        try "user set alice\nclock\napp restart\nclock\n".write(to: script, atomically: true, encoding: .utf8)
        let shrink = try ChatbenchBinary.run(["shrink", script.path], environment: ["CHATBENCH_TEST_CRASH_ON_LINE": "app restart"])
        #expect(shrink.status == 0, "\(shrink.stderr)")
        // The crash's signature says how it ended and what the runtime said,
        // its address made stable (it differs in each process).
        #expect(shrink.stdout.contains("# shrunk from \(script.path): no crash: the run crashed (signal "), "\(shrink.stdout)")
        #expect(
            shrink.stdout.contains(": object 0x…: CHATBENCH_TEST_CRASH_ON_LINE asked for a crash at \"app restart\")\napp restart\n"),
            "\(shrink.stdout)")
    }

    @Test func anUnknownFaultIsNamed() throws {
        let run = try ChatbenchBinary.run(["explore", "x.chat", "--faults", "offlne"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("unknown fault \"offlne\""))
    }

    @Test func progressIsOneLineRedrawnAtATerminalAndPlainLinesElsewhere() {
        let start = Date(timeIntervalSinceReferenceDate: 0)
        let written = Mutex<[String]>([])
        let plain = ProgressReporter(
            ExploreProgress(file: "f.chat", total: 20), started: start, atTerminal: false,
            write: { text in written.withLock { $0.append(text) } })
        for run in 1...20 { plain.runEnded(failed: run == 5, at: start + Double(run) / 10) }
        plain.finish()
        let lines = written.withLock { $0 }
        #expect(lines.count == 9)
        #expect(lines.first == "explore f.chat: 2/20 runs, 10 runs/s, 0 failed, ETA 2s\n")
        #expect(lines.last == "explore f.chat: 18/20 runs, 10 runs/s, 1 failed, ETA 1s\n")

        written.withLock { $0 = [] }
        let terminal = ProgressReporter(
            ExploreProgress(file: "f.chat", total: 4), started: start, atTerminal: true,
            write: { text in written.withLock { $0.append(text) } })
        for seconds in [0.5, 0.55, 0.7, 2.0] { terminal.runEnded(failed: false, at: start + seconds) }
        terminal.finish()
        // Drawn at 0.5 s and 0.7 s (not 0.05 s after the last), not for the last run, erased at the end.
        #expect(
            written.withLock { $0 } == [
                "\r\u{1B}[Kexplore f.chat: 1/4 runs, 2.0 runs/s, 0 failed, ETA 2s",
                "\r\u{1B}[Kexplore f.chat: 3/4 runs, 4.3 runs/s, 0 failed, ETA 1s",
                "\r\u{1B}[K",
            ])
    }
}
