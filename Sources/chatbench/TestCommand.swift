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
            printed as diffs; the last line is `N passed, N failed`. Exit status: 0 when all \
            passed, 1 when one failed, 2 for bad usage. Nothing is recorded.
            """
    )

    @Argument(help: ArgumentHelp("Transcripts, scripts or folders of them.", valueName: "path"),
              completion: .file(extensions: ["chat"]))
    var paths: [String]

    @Option(help: ArgumentHelp("Write a JUnit XML report to this file.", valueName: "file"), completion: .file())
    var junit: String?

    @Flag(help: "Rewrite the expected output of transcripts (never when CI is set).")
    var update = false

    @Option(help: ArgumentHelp("How many files run at once (default: the number of cores).", valueName: "n"))
    var jobs: Int?

    @Flag(help: "Print results as JSON.")
    var json = false

    @Option(help: ArgumentHelp("Write the HTML sequence view of each failing file's run into this folder.", valueName: "dir"),
            completion: .directory)
    var htmlOnFailure: String?

    @OptionGroup var world: WorldOptions

    func validate() throws {
        if paths.isEmpty { throw ValidationError("name at least one .chat file or folder, e.g. chatbench test examples/") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    func run() throws {
        if update, let ci = ProcessInfo.processInfo.environment["CI"], !ci.isEmpty {
            SessionSource.fail("test --update rewrites expected output and is refused when CI is set: run it locally and commit the result")
        }
        let files: [String]
        do {
            files = try TranscriptRunner.files(in: paths)
        } catch {
            SessionSource.fail(error.message)
        }
        guard !files.isEmpty else {
            SessionSource.fail("no .chat files in \(paths.joined(separator: ", "))")
        }
        let results: [TranscriptResult]
        switch world.server {
        case nil:
            results = TranscriptRunner.runAll(files, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount, html: htmlOnFailure != nil)
        case FreshServer.keyword?:
            results = TranscriptRunner.runAll(files, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount, server: FreshServer.start,
                                              html: htmlOnFailure != nil)
        case let url?:
            // One server for every file: they run one after the other.
            results = TranscriptRunner.runAll(files, jobs: 1, server: { _ in (url, {}) }, html: htmlOnFailure != nil)
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
                try Data(JUnitWriter.xml(results).utf8).write(to: URL(fileURLWithPath: junit))
            } catch {
                SessionSource.fail("cannot write \(junit): \((error as NSError).localizedDescription)")
            }
        }
        var updated = 0
        if update {
            for result in results {
                guard let text = result.updatedText else { continue }
                do {
                    try Data(text.utf8).write(to: URL(fileURLWithPath: result.path))
                    updated += 1
                } catch {
                    Terminal.error("chatbench: cannot update \(result.path): \((error as NSError).localizedDescription)")
                }
            }
        }
        if json {
            struct Report: Encodable {
                var path: String
                var passed: Bool
                var failures: [String]
                var seconds: Double
            }
            let report = results.map { Report(path: $0.path, passed: $0.passed, failures: $0.failures, seconds: $0.seconds) }
            Terminal.write(try JSONOutput.encode(report) + "\n")
        } else {
            for result in results { TranscriptRunner.report(result).forEach { Terminal.write($0 + "\n") } }
            if update { Terminal.write("updated \(updated) file\(updated == 1 ? "" : "s")\n") }
            Terminal.write(TranscriptRunner.summary(results) + "\n")
        }
        throw ExitCode(results.allSatisfy(\.passed) ? 0 : 1)
    }
}
