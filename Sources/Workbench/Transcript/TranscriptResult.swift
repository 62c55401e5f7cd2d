import Foundation

/// How one `.chat` file went.
package struct TranscriptResult: Sendable, Hashable {
    package var path: String
    /// nil when the file could not be read or parsed.
    package var kind: Transcript.Kind?
    package var passed: Bool
    /// What went wrong, ready to print (diffs annotated with the input), or
    /// a malformed file's one-line error.
    package var failures: [String]
    /// What the lines of `failures` that have a style are (a diff's
    /// removed and added lines), by index: said where the lines are made,
    /// for the report's colours; the others are plain.
    package var failureStyles: [Int: OutputStyle] = [:]
    /// True when the file itself is at fault (unreadable, malformed).
    package var isError: Bool
    /// Everything the run printed: `> input` lines and outputs (redacted).
    package var output: String
    /// The file's text with expected output brought up to date (transcripts
    /// whose output did not match only).
    package var updatedText: String?
    /// Wall time of the run, in seconds.
    package var seconds: Double
    /// Why the file was not run (`# embedded-only:` against a server); nil when it ran.
    package var skipped: String?
    /// The run's HTML sequence view, when it failed and one was asked for
    /// (`test --html-on-failure DIR`).
    package var html: String?
    /// An `expect` failed: `--update` never writes its failure into the
    /// file as the expected output (issue 30), so the file still fails.
    package var expectFailed = false
    /// Each failing step, with its line (for `--json`, `--junit` and
    /// `--annotations github`); empty for a malformed file.
    package var failedSteps: [FailedStep] = []
    /// The file ran out of its `--timeout`.
    package var timedOut = false
    /// A malformed file's line (nil when the whole file is at fault).
    package var errorLine: Int?

    /// How a file went, as `test --json` names it.
    package enum Status: String, Sendable, Hashable, Encodable {
        case passed, failed, skipped, timedOut
    }

    package var status: Status {
        if skipped != nil { return .skipped }
        if timedOut { return .timedOut }
        return passed ? .passed : .failed
    }

    /// A result for a file that could not be run.
    package static func error(_ error: TranscriptError) -> TranscriptResult {
        var result = TranscriptResult(
            path: error.path, kind: nil, passed: false, failures: [error.message], isError: true, output: "", updatedText: nil, seconds: 0)
        result.errorLine = error.line
        return result
    }
}
