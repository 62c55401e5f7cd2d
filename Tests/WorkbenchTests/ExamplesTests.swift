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
