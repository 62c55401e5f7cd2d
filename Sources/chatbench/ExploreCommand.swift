import ArgumentParser
import Foundation
import Synchronization
import Workbench

/// `chatbench explore FILE...`: a script under many seeded fault schedules.
struct ExploreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore",
        abstract: "Run scripts under many seeded fault schedules and check invariants.",
        discussion: """
            Each run inserts faults drawn from --seed and the run's number between the \
            steps of FILE, and inside a step's work (net offline --after D): offline \
            windows, failed and dropped requests, latency, app restarts and background, \
            provider failures, token expiry and revocation, clock jumps. Then it heals the \
            world (network back, app in front, recovery run) and checks: every message \
            sent once or failed, order kept, fresh watchers equal the server, watchers \
            show only their user's data, allowed session and connection transitions, a \
            signed-out user leaves nothing, no crash, a bounded run, and the script's own \
            expects (unless --no-expects). Runs go to worker processes (one per job): a \
            crash fails its run and the others go on. The same file, seed and run give \
            the same run, whatever --jobs. Each failure is saved as a script that \
            `chatbench run` reproduces, shrunk unless --no-shrink. Progress (runs done, \
            runs per second, failures so far, time left) goes to standard error: one \
            line redrawn at a terminal, else a plain line at each tenth of the runs. \
            Exit status 1 when a run failed.
            """
    )

    @Argument(
        help: ArgumentHelp("Scripts or transcripts to explore, or folders of them.", valueName: "file"),
        completion: .file(extensions: ["chat"]))
    var files: [String]

    @Option(help: "Runs per file.")
    var runs = 200

    @Option(help: "The seed the fault schedules are drawn from.")
    var seed: UInt64 = 1

    @Option(
        help: ArgumentHelp(
            "The kinds of fault, comma-separated (default all): \(FaultSchedule.Kind.allCases.map(\.rawValue).joined(separator: ",")).",
            valueName: "list"))
    var faults: String?

    @Flag(help: "Check only the invariants, not the script's own expect lines.")
    var noExpects = false

    @Flag(help: "Save failures as they are, without shrinking them.")
    var noShrink = false

    @Option(help: ArgumentHelp("Where failing runs are saved.", valueName: "dir"))
    var out = "explore-failures"

    @Option(help: ArgumentHelp("How many runs at once (default: the number of cores).", valueName: "n"))
    var jobs: Int?

    @Option(
        help: ArgumentHelp("Write a JUnit XML report to this file: a test case per file explored.", valueName: "file"), completion: .file())
    var junit: String?

    func validate() throws {
        if files.isEmpty { throw ValidationError("name at least one .chat file, e.g. chatbench explore examples/06-sending.chat") }
        if runs < 1 { throw ValidationError("--runs must be at least 1") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        _ = try Self.kinds(faults)
    }

    /// The kinds a `--faults` list names (nil: all of them).
    static func kinds(_ faults: String?) throws -> Set<FaultSchedule.Kind> {
        guard let faults else { return Set(FaultSchedule.Kind.allCases) }
        var kinds = Set<FaultSchedule.Kind>()
        for name in faults.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard let kind = FaultSchedule.Kind(rawValue: name) else {
                throw ValidationError(
                    "unknown fault \"\(name)\": use \(FaultSchedule.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            kinds.insert(kind)
        }
        return kinds
    }

    func run() throws {
        var explorer = Explorer()
        explorer.seed = seed
        explorer.runs = runs
        explorer.kinds = try Self.kinds(faults)
        explorer.checkExpects = !noExpects
        var reports: [ExploreReport] = []
        let paths: [String]
        do { paths = try TranscriptRunner.files(in: files) } catch { SessionSource.fail(error.message) }
        for file in paths {
            let lines = Self.inputs(of: file)
            let report = try explore(lines, of: file, with: explorer)
            Terminal.write(
                "explore \(file): \(report.runs.count) runs in \(String(format: "%.1f", report.seconds)) s (\(ExploreProgress.rate(Double(report.runs.count) / report.seconds)) runs/s), \(report.failing.count) failed\n"
            )
            for group in report.byInvariant { try save(group.runs[0], of: file) }
            // A long exploration into a file or a pipe shows each file's result as it ends.
            Terminal.flush()
            reports.append(report)
        }
        let table = reports.flatMap { report in
            report.byInvariant.map { (report.file, $0.invariant.rawValue, $0.runs.count, $0.runs[0].number) }
        }
        if !table.isEmpty {
            Terminal.write("\nINVARIANT".padding(toLength: 40, withPad: " ", startingAt: 0) + "RUNS  FIRST RUN  FILE\n")
            for (file, invariant, runs, first) in table {
                Terminal.write(
                    invariant.padding(toLength: 39, withPad: " ", startingAt: 0)
                        + String(runs).padding(toLength: 6, withPad: " ", startingAt: 0)
                        + String(first).padding(toLength: 11, withPad: " ", startingAt: 0) + file + "\n")
            }
        }
        Terminal.flush()
        if let junit {
            let xml = JUnitWriter.xml(reports.map(\.testResult), suite: "chatbench explore", failing: "an invariant broke: ")
            do { try Data(xml.utf8).write(to: URL(fileURLWithPath: junit)) } catch {
                SessionSource.fail("cannot write \(junit): \((error as NSError).localizedDescription)")
            }
        }
        if !table.isEmpty { throw ExitCode(1) }
    }

    /// Runs `lines` `runs` times on `--jobs` threads, each thread feeding a
    /// worker process of its own (started again after a crash, which is the
    /// run's failure), reporting progress on standard error as runs end.
    private func explore(_ lines: [String], of file: String, with explorer: Explorer) throws -> ExploreReport {
        let started = Date()
        let results = Mutex<[Explorer.Run?]>(Array(repeating: nil, count: runs))
        let problem = Mutex<String?>(nil)
        let progress = ProgressReporter(ExploreProgress(file: file, total: runs), started: started)
        let next = Atomic<Int>(0)
        let arguments = ExploreWorker.arguments(file: file, seed: seed, faults: faults, noExpects: noExpects)
        let runs = self.runs
        DispatchQueue.concurrentPerform(iterations: min(runs, jobs ?? ProcessInfo.processInfo.activeProcessorCount)) { _ in
            let worker = RestartingWorker(arguments: arguments)
            defer { worker.finish() }
            while true {
                let number = next.add(1, ordering: .relaxed).oldValue
                guard number < runs else { return }
                do {
                    let run = Explorer.Run(
                        number: number, lines: explorer.lines(of: lines, run: number), violations: try worker.run(number))
                    results.withLock { $0[number] = run }
                    progress.runEnded(failed: run.failed)
                } catch {
                    problem.withLock { $0 = "\(error)" }
                    return
                }
            }
        }
        progress.finish()
        if let problem = problem.withLock({ $0 }) { SessionSource.fail("explore \(file): \(problem)") }
        return ExploreReport(
            file: file, runs: results.withLock { $0.compactMap { $0 } }, seconds: max(Date().timeIntervalSince(started), 0.001))
    }

    /// Saves a failing run (shrunk unless asked not to) as a script.
    private func save(_ run: Explorer.Run, of file: String) throws {
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let name = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        let path = "\(out)/\(name)-seed\(seed)-run\(run.number).chat"
        var text = Explorer.script(run, seed: seed, from: file)
        if !noShrink {
            var shrinker = Shrinker()
            shrinker.seed = seed
            shrinker.checkExpects = !noExpects
            // Each trial in a worker: a trial that crashes is a failure too.
            let worker = RestartingWorker(arguments: ExploreWorker.arguments(file: nil, seed: seed, faults: nil, noExpects: noExpects))
            defer { worker.finish() }
            let (body, ending) = Explorer.shrinkable(run)
            if let shrunk = try shrinker.shrink(body, check: { try worker.check($0 + ending) }) {
                let lines = shrunk.lines + ending
                text += "\n# shrunk from \(run.lines.count) lines to \(lines.count) in \(shrunk.trials) trial runs:\n"
                try
                    (Explorer.script(
                        Explorer.Run(number: run.number, lines: lines, violations: run.violations), seed: seed, from: file))
                    .write(toFile: path.replacingOccurrences(of: ".chat", with: "-shrunk.chat"), atomically: true, encoding: .utf8)
            }
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        Terminal.write("  saved \(path)\n")
    }

    /// A script or transcript, as `chatbench test` reads it.
    static func load(_ file: String) -> Transcript {
        do { return try Transcript.load(path: file) } catch { SessionSource.fail(error.message) }
    }

    /// The input lines of a script or a transcript, comments left out.
    static func inputs(of file: String) -> [String] {
        load(file).blocks.map(\.input).filter { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return !trimmed.isEmpty && !trimmed.hasPrefix("#")
        }
    }
}
