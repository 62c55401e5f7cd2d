import Foundation
import Testing

@testable import Workbench

/// `examples/` is a folder of transcripts run as tests (SPEC W8): each must
/// pass, and print the same bytes every time (W4).
@Suite struct ExamplesTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("examples")

    static var files: [String] {
        (try? TranscriptRunner.files(in: [folder.path])) ?? []
    }

    @Test func theFolderIsThere() {
        var isDirectory: ObjCBool = false
        #expect(
            FileManager.default.fileExists(atPath: Self.folder.path, isDirectory: &isDirectory) && isDirectory.boolValue,
            "examples/ not found at \(Self.folder.path)")
    }

    @Test(arguments: ExamplesTests.files)
    func examplePasses(path: String) {
        let result = TranscriptRunner.run(path: path)
        #expect(result.passed, "\(TranscriptRunner.report(result).text)")
    }

    /// The README's tour is a transcript: it runs, and passes, so the
    /// README says what the REPL prints.
    @Test func theReadmesTourPasses() {
        let readme = Self.folder.deletingLastPathComponent().appendingPathComponent("README.md").path
        let result = TranscriptRunner.run(path: readme)
        #expect(result.passed, "\(TranscriptRunner.report(result).text)")
        #expect(result.kind == .transcript && result.updatedText == nil)
    }

    /// A README block that shows what commands print (`$ COMMAND` lines,
    /// then their output) is a checked one (`sh checked`, run by
    /// scripts/readme_commands_check.py in the test command), so its output
    /// is what the build prints, not what it printed once (the shrink block
    /// said 23 trial runs where shrink made 22). A block of commands alone
    /// says nothing to check.
    @Test func theReadmesShellSessionsAreChecked() throws {
        let readme = Self.folder.deletingLastPathComponent().appendingPathComponent("README.md")
        let lines = try String(contentsOf: readme, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        var unchecked: [Int] = []
        var open: (line: Int, info: Substring, session: Bool)?
        for (index, line) in lines.enumerated() {
            if let block = open {
                if line.trimmingCharacters(in: .whitespaces) == "```" {
                    if block.session, block.info != "sh checked" { unchecked.append(block.line) }
                    open = nil
                } else if line.hasPrefix("$ ") {
                    open?.session = true
                }
            } else if line.hasPrefix("```") {
                open = (index + 1, line.dropFirst(3), false)
            }
        }
        #expect(unchecked.isEmpty, "README.md: blocks of commands and their output not marked `sh checked`, at lines \(unchecked)")
    }

    @Test func markdownTranscriptBlocksKeepTheFilesLineNumbers() throws {
        let text =
            "# Title\n\nprose\n\n```transcript\n> clock\nclock [..]\n```\n\n```sh\n> not this\n```\n\n```transcript\n> expect error == none\nok: error == none\n```\n"
        let transcript = try Transcript.parseMarkdown(text, path: "doc.md")
        #expect(transcript.blocks.map(\.input) == ["clock", "expect error == none"])
        #expect(transcript.blocks.map(\.line) == [6, 15])
        #expect(throws: TranscriptError.self) { try Transcript.parseMarkdown("no blocks\n", path: "doc.md") }
    }

    @Test(arguments: ExamplesTests.files)
    func exampleIsDeterministic(path: String) {
        let first = TranscriptRunner.run(path: path)
        let second = TranscriptRunner.run(path: path)
        #expect(first.output == second.output, "two runs of \(path) printed different output")
    }

    /// All of them at once, on several threads, as `chatbench test` runs them.
    @Test func examplesInParallelPrintWhatTheyPrintAlone() {
        let files = Self.files
        let alone = files.map { TranscriptRunner.run(path: $0).output }
        let together = TranscriptRunner.runAll(files + files, jobs: 4).map(\.output)
        #expect(together == alone + alone)
    }
}
