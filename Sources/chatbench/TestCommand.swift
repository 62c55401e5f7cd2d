import ArgumentParser
import Foundation
import Workbench

/// `chatbench test PATH...` (SPEC W8).
struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run .chat files as tests.",
        discussion: """
            A folder means every *.chat file in it, recursively. Each file runs in its own \
            fresh world (seed 1, or the file's `# seed: N` line), in parallel. A transcript \
            passes when its output matches (`[..]`: any text within a line; a line `...`: \
            any lines; a trailing ` (re)`: a regular expression) and its expects hold; a \
            plain script when its expects hold and every line is understood. Failures are \
            printed as diffs, each under the line of its step; a file still running after \
            --timeout fails, naming the line it had reached. The last line is `N passed, N \
            failed`. For CI: --junit FILE (a failure's message starts with `path:line:`), \
            --annotations github, --json, --shard K/N and --html-on-failure DIR; docs/ci.md \
            has a GitHub Actions workflow and a GitLab CI job. Exit status: 0 when all \
            passed, 1 when one failed, 2 for bad usage. Nothing is recorded.
            """
    )

    @Argument(
        help: ArgumentHelp("Transcripts, scripts or folders of them.", valueName: "path"),
        completion: .file(extensions: ["chat"]))
    var paths: [String] = []

    @Option(
        help: ArgumentHelp(
            "Write a JUnit XML report to this file (valid against Jenkins xunit's junit-10.xsd; a failure's message starts with path:line:).",
            valueName: "file"), completion: .file())
    var junit: String?

    @Flag(help: "Rewrite the expected output of transcripts (never when CI is set).")
    var update = false

    @Option(help: ArgumentHelp("How many files run at once (default: the number of cores).", valueName: "n"))
    var jobs: Int?

    @Flag(
        help: ArgumentHelp(
            "Print results as JSON: per file its path, status (passed, failed, skipped, timedOut), failures and failedSteps (file, line, input, expected, found)."
        ))
    var json = false

    /// `--annotations github`.
    enum Annotations: String, ExpressibleByArgument, CaseIterable {
        case github
    }

    @Option(
        help: ArgumentHelp(
            "Also print a CI annotation per failing step: `github` prints GitHub Actions `::error file=…,line=…` commands, shown on the pull request's diff.",
            valueName: "format"))
    var annotations: Annotations?

    @Option(
        help: ArgumentHelp("Write the HTML sequence view of each failing file's run into this folder.", valueName: "dir"),
        completion: .directory)
    var htmlOnFailure: String?

    @Option(
        help: ArgumentHelp(
            "Fail a file still running after this many seconds of wall time, and go on with the others (0: no limit).", valueName: "seconds"
        ))
    var timeout: Double = 60

    @Option(
        help: ArgumentHelp(
            "Run only shard K of N: every Nth file by name, starting at the Kth (for splitting a folder across CI machines).",
            valueName: "K/N"))
    var shard: String?

    @Option(
        help: ArgumentHelp(
            "Run against this running `chatbench serve` (files one after the other), or `fresh` for a new in-process server per file.",
            valueName: "url"))
    var server: String?

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if timeout < 0 { throw ValidationError("--timeout must be 0 (no limit) or a number of seconds, got \(timeout)") }
        if json, annotations != nil {
            throw ValidationError("--annotations prints beside the text report, not with --json (its output would no longer be JSON)")
        }
        if let shard, Self.parseShard(shard) == nil {
            throw ValidationError("--shard must be K/N with 1 ≤ K ≤ N, as in --shard 2/4; got \"\(shard)\"")
        }
    }

    /// `2/4` → (2, 4).
    static func parseShard(_ text: String) -> (index: Int, count: Int)? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, (1...count).contains(index) else {
            return nil
        }
        return (index, count)
    }

    func run() throws {
        // Here rather than in `validate`, which the parser calls before it
        // names an unknown option (`chatbench test --bogus`).
        if paths.isEmpty {
            Terminal.error(
                "Error: name at least one .chat file or folder, e.g. chatbench test examples/\n  See 'chatbench test --help' for more information."
            )
            throw ExitCode(2)
        }
        if update, let ci = ProcessInfo.processInfo.environment["CI"], !ci.isEmpty {
            SessionSource.fail("test --update rewrites expected output and is refused when CI is set: run it locally and commit the result")
        }
        var files: [String]
        do {
            files = try TranscriptRunner.files(in: paths)
        } catch {
            SessionSource.fail(error.message)
        }
        guard !files.isEmpty else {
            SessionSource.fail("no .chat files in \(paths.joined(separator: ", "))")
        }
        if let shard, let (index, count) = Self.parseShard(shard) {
            files = TranscriptRunner.shard(files, index: index, of: count)
        }
        let limit: Duration? = timeout > 0 ? .milliseconds(Int64((timeout * 1000).rounded())) : nil
        let results: [TranscriptResult]
        switch server {
        case nil:
            results = TranscriptRunner.runAll(
                files, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount, timeout: limit, html: htmlOnFailure != nil)
        case FreshServer.keyword?:
            results = TranscriptRunner.runAll(
                files, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount, timeout: limit, server: FreshServer.start,
                html: htmlOnFailure != nil)
        case let url?:
            // One server for every file: they run one after the other.
            results = TranscriptRunner.runAll(files, jobs: 1, timeout: limit, server: { _ in (url, {}) }, html: htmlOnFailure != nil)
        }
        if let htmlOnFailure {
            for result in results {
                guard let html = result.html else { continue }
                let path = HTMLFile.write(html, into: htmlOnFailure, name: HTMLFile.name(forTranscript: result.path))
                Terminal.error("chatbench: \(result.path) failed; its sequence view: \(path)")
            }
        }
        if let junit {
            do {
                try Data(JUnitWriter.xml(results, suite: shard.map { "chatbench shard \($0)" } ?? "chatbench").utf8).write(
                    to: URL(fileURLWithPath: junit))
            } catch {
                SessionSource.fail("cannot write \(junit): \((error as NSError).localizedDescription)")
            }
        }
        var updated = 0
        var rewritten: Set<String> = []
        if update {
            for result in results {
                guard let text = result.updatedText else { continue }
                do {
                    try Data(text.utf8).write(to: URL(fileURLWithPath: result.path))
                    updated += 1
                    rewritten.insert(result.path)
                } catch {
                    Terminal.error("chatbench: cannot update \(result.path): \((error as NSError).localizedDescription)")
                }
            }
        }
        if json {
            Terminal.write(try JSONOutput.encode(results.map(TranscriptJSONEntry.init)) + "\n")
        } else {
            if annotations == .github {
                for command in GitHubAnnotations.commands(results) { Terminal.write(command + "\n") }
            }
            for result in results { Terminal.write(Colour.paint(TranscriptRunner.report(result))) }
            if update { Terminal.write("updated \(updated) file\(updated == 1 ? "" : "s")\n") }
            Terminal.write(TranscriptRunner.summary(results) + "\n")
        }
        // --update succeeds when every failing file was rewritten (a failed
        // expect or a timeout is not something it can rewrite: the file keeps
        // its expectation, and the run fails).
        throw ExitCode(results.allSatisfy { $0.passed || (rewritten.contains($0.path) && !$0.expectFailed) } ? 0 : 1)
    }
}
