/// A file's entry in `chatbench test --json`. `path`, `passed`, `failures`
/// (the report's lines) and `seconds` are as they always were; `status`
/// says passed, failed, skipped or timedOut (a skipped file is also
/// `passed: true`, as before), `skipped` why it was skipped, and
/// `failedSteps` each failing step (file, line, input, reason, expected,
/// found).
package struct TranscriptJSONEntry: Sendable, Hashable, Encodable {
    package var path: String
    package var passed: Bool
    package var status: TranscriptResult.Status
    package var skipped: String?
    package var failures: [String]
    package var failedSteps: [FailedStep]
    package var seconds: Double

    package init(_ result: TranscriptResult) {
        path = result.path
        passed = result.passed
        status = result.status
        skipped = result.skipped
        failures = result.failures
        failedSteps = result.failedSteps
        seconds = result.seconds
    }
}
