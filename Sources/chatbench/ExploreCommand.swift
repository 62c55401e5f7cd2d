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
            crash fails its run and the others go on, and so does a run still running \
            after --timeout, which is killed and fails as a hang (no hang); the shrink \
            of a failure is bounded by the same limit. The same file, seed and run give \
            the same run, whatever --jobs. Each failure is saved as a script that \
            `chatbench run` reproduces, shrunk unless --no-shrink. --shard K/N runs every \
            Nth run, starting at run K-1, so N machines can share one exploration; \
            --report FILE saves what a shard found, and --merge REPORT... makes of the \
            shards' reports what the unsharded exploration reports (the same failing \
            runs, table, JUnit and saved failures; docs/ci.md). Progress (runs done, \
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
            "The kinds of fault, comma-separated (default all but cut): \(FaultSchedule.Kind.allCases.map(\.rawValue).joined(separator: ",")).",
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
        help: ArgumentHelp(
            "Kill a run (or a trial run of its shrink) still running after this many seconds of wall time: it fails as a hang (0: no limit). The default, 60, is hundreds of times what a run of an example takes (well under a second), so a run slowed down by a loaded machine is not taken for a hang.",
            valueName: "seconds"))
    var timeout: Double = 60

    @Option(
        help: ArgumentHelp("Write a JUnit XML report to this file: a test case per file explored.", valueName: "file"), completion: .file())
    var junit: String?

    @Option(
        help: ArgumentHelp(
            "Make only shard K of N of the runs: every Nth run, starting at run K-1 (for splitting an exploration across CI machines).",
            valueName: "K/N"))
    var shard: String?

    @Option(
        help: ArgumentHelp("Write what this exploration found to this JSON file, for --merge.", valueName: "file"),
        completion: .file(extensions: ["json"]))
    var report: String?

    @Flag(
        help:
            "The arguments are the --report files of an exploration's shards: report, save failures and write --junit as the unsharded exploration would."
    )
    var merge = false

    func validate() throws {
        if files.isEmpty, merge { throw ValidationError("name the shards' report files, e.g. chatbench explore --merge shard-*.json") }
        if files.isEmpty { throw ValidationError("name at least one .chat file, e.g. chatbench explore examples/06-sending.chat") }
        if let shard, TestCommand.parseShard(shard) == nil {
            throw ValidationError("--shard must be K/N with 1 ≤ K ≤ N, as in --shard 2/4; got \"\(shard)\"")
        }
        if merge, shard != nil { throw ValidationError("--merge takes the shards' reports: it runs nothing, so --shard does not apply") }
        if runs < 1 { throw ValidationError("--runs must be at least 1") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        try RestartingWorker.validate(timeout: timeout)
        _ = try Self.kinds(faults)
    }

    /// How long a run, or a trial of its shrink, may run (nil: no limit).
    private var limit: Duration? { RestartingWorker.limit(timeout: timeout) }

    /// The kinds a `--faults` list names (nil: the defaults, all but `cut`).
    static func kinds(_ faults: String?) throws -> Set<FaultSchedule.Kind> {
        guard let faults else { return FaultSchedule.Kind.defaults }
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
        if merge { return try mergeShards() }
        var explorer = Explorer()
        explorer.seed = seed
        explorer.runs = runs
        explorer.kinds = try Self.kinds(faults)
        explorer.checkExpects = !noExpects
        let (shardIndex, shardCount) = shard.flatMap(TestCommand.parseShard) ?? (1, 1)
        let numbers = Explorer.shard(runs: runs, index: shardIndex, of: shardCount)
        var found = ExploreShardReport(
            seed: seed, runs: runs, shardIndex: shardIndex, shardCount: shardCount, faults: faults, noExpects: noExpects)
        let paths: [String]
        do { paths = try TranscriptRunner.files(in: files) } catch { SessionSource.fail(error.message) }
        guard !paths.isEmpty else { SessionSource.fail("no .chat files in \(files.joined(separator: ", "))") }
        for file in paths {
            let lines = Self.inputs(of: file)
            let report = try explore(lines, of: file, runs: numbers, with: explorer)
            let which = shard.map { " (shard \($0))" } ?? ""
            Terminal.write(
                "explore \(file)\(which): \(report.runCount) runs in \(String(format: "%.1f", report.seconds)) s (\(ExploreProgress.rate(Double(report.runCount) / report.seconds)) runs/s), \(report.failing.count) failed\n"
            )
            var saved: [ExploreShardReport.SavedFailure] = []
            for group in report.byInvariant { saved.append(try save(group.runs[0], of: file)) }
            // A long exploration into a file or a pipe shows each file's result as it ends.
            Terminal.flush()
            found.files.append(ExploreShardReport.File(report, saved: saved))
        }
        if let report {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            do { try encoder.encode(found).write(to: URL(fileURLWithPath: report)) } catch {
                SessionSource.fail("cannot write \(report): \((error as NSError).localizedDescription)")
            }
        }
        try finish(found.files.map { ExploreReport(file: $0.file, runs: $0.failing, runCount: $0.runCount, seconds: $0.seconds) })
    }

    /// `--merge`: the shards' reports as one exploration.
    private func mergeShards() throws {
        var shards: [ExploreShardReport] = []
        for path in files {
            do {
                shards.append(try JSONDecoder().decode(ExploreShardReport.self, from: Data(contentsOf: URL(fileURLWithPath: path))))
            } catch is DecodingError {
                SessionSource.fail("\(path) is not a report of chatbench explore --report")
            } catch { SessionSource.fail("cannot read \(path): \((error as NSError).localizedDescription)") }
        }
        let merged: (reports: [ExploreReport], saved: [ExploreShardReport.SavedFailure])
        do { merged = try ExploreShardReport.merge(shards) } catch { SessionSource.fail(error.description) }
        for report in merged.reports {
            Terminal.write(
                "explore \(report.file): \(report.runCount) runs in \(shards.count) shards (\(String(format: "%.1f", report.seconds)) s of work), \(report.failing.count) failed\n"
            )
        }
        for failure in merged.saved { try write(failure) }
        try finish(merged.reports)
    }

    /// The table of invariants broken, the JUnit report, the exit status.
    private func finish(_ reports: [ExploreReport]) throws {
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
            let xml = JUnitWriter.xml(reports.map(\.testResult), suite: "chatbench explore", failing: "")
            do { try Data(xml.utf8).write(to: URL(fileURLWithPath: junit)) } catch {
                SessionSource.fail("cannot write \(junit): \((error as NSError).localizedDescription)")
            }
        }
        if !table.isEmpty { throw ExitCode(1) }
    }

    /// Runs `lines` once per run number on `--jobs` threads, each thread
    /// feeding a worker process of its own (started again after a crash,
    /// or after a run it did not answer within `--timeout`: the run's
    /// failure, `no hang`), reporting progress on standard error as
    /// runs end.
    private func explore(_ lines: [String], of file: String, runs numbers: [Int], with explorer: Explorer) throws -> ExploreReport {
        let started = Date()
        let results = Mutex<[Explorer.Run?]>(Array(repeating: nil, count: numbers.count))
        let problem = Mutex<String?>(nil)
        let progress = ProgressReporter(ExploreProgress(file: file, total: numbers.count), started: started)
        let next = Atomic<Int>(0)
        let arguments = ExploreWorker.arguments(file: file, seed: seed, faults: faults, noExpects: noExpects)
        DispatchQueue.concurrentPerform(iterations: max(1, min(numbers.count, jobs ?? ProcessInfo.processInfo.activeProcessorCount))) {
            _ in
            let worker = RestartingWorker(arguments: arguments, limit: limit)
            defer { worker.finish() }
            while true {
                let position = next.add(1, ordering: .relaxed).oldValue
                guard position < numbers.count else { return }
                let number = numbers[position]
                do {
                    var run = explorer.planned(lines, run: number)
                    run.violations = try worker.run(number)
                    results.withLock { $0[position] = run }
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
    private func save(_ run: Explorer.Run, of file: String) throws -> ExploreShardReport.SavedFailure {
        let name = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        var failure = ExploreShardReport.SavedFailure(
            run: run.number, stem: "\(name)-seed\(seed)-run\(run.number)", script: Explorer.script(run, seed: seed, from: file),
            shrunk: nil)
        if !noShrink {
            var shrinker = Shrinker()
            shrinker.seed = seed
            shrinker.checkExpects = !noExpects
            // Each trial in a worker: a trial that crashes is a failure too,
            // and one that hangs is killed at the run's limit.
            let worker = RestartingWorker(
                arguments: ExploreWorker.arguments(file: nil, seed: seed, faults: nil, noExpects: noExpects), limit: limit)
            defer { worker.finish() }
            let (body, ending) = Explorer.shrinkable(run)
            if let shrunk = try shrinker.shrink(body, check: { try worker.check($0 + ending) }) {
                if shrunk.confirmed {
                    let smaller = Explorer.Run(number: run.number, body: shrunk.lines, ending: ending, violations: run.violations)
                    failure.script += "\n# shrunk from \(run.lines.count) lines to \(smaller.lines.count) in \(shrunk.trials) trial runs:\n"
                    failure.shrunk = Explorer.script(smaller, seed: seed, from: file)
                } else {
                    failure.script += "\n# \(Self.unconfirmedHang(trials: shrunk.trials))\n"
                }
            }
        }
        try write(failure)
        return failure
    }

    /// What a shrink says when no smaller script hung again (``Shrinker/Result/confirmed``).
    static func unconfirmedHang(trials: Int) -> String {
        "not shrunk: no smaller script hung again when tried once more (\(trials) trial runs); "
            + "the run may be slower than the time limit on this machine rather than stuck"
    }

    /// Writes a saved failure (and its shrunk script) into `--out`.
    private func write(_ failure: ExploreShardReport.SavedFailure) throws {
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let path = "\(out)/\(failure.name)"
        if let shrunk = failure.shrunk {
            try shrunk.write(toFile: "\(out)/\(failure.shrunkName)", atomically: true, encoding: .utf8)
        }
        try failure.script.write(toFile: path, atomically: true, encoding: .utf8)
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
