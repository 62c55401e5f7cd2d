/// One failing step of a `.chat` file: where it is, what it expected and
/// what it found (`test --json`'s `failedSteps`, a JUnit failure's message,
/// a GitHub annotation).
package struct FailedStep: Sendable, Hashable, Encodable {
    /// Why the step failed.
    package enum Reason: String, Sendable, Hashable, Encodable {
        /// The output did not match the expected lines.
        case outputDiffers
        /// An `expect` did not hold.
        case expectFailed
        /// A plain script's line was an error (not understood, or it failed).
        case scriptError
        /// The file ran out of its `--timeout` while this step ran.
        case timedOut
    }

    package var file: String
    /// The step's input line in the file (1-based; in a Markdown file, the line in the Markdown).
    package var line: Int
    package var input: String
    package var reason: Reason
    /// The expected output lines (a transcript's; empty for a script).
    package var expected: [String]
    /// What the step printed (empty when it ran out of time).
    package var found: [String]
    /// The report's lines under `line N: > input`: the diff, the output, or why it stopped.
    package var detail: [String]

    package init(
        file: String, line: Int, input: String, reason: Reason, expected: [String] = [], found: [String] = [], detail: [String] = []
    ) {
        self.file = file
        self.line = line
        self.input = input
        self.reason = reason
        self.expected = expected
        self.found = found
        self.detail = detail
    }

    /// One line saying what went wrong: `output differs at > send c1 hi`.
    package var summary: String {
        switch reason {
        case .outputDiffers: "output differs at > \(input)"
        case .expectFailed: "an expect failed at > \(input)"
        case .scriptError: "a script line failed at > \(input)"
        case .timedOut: "ran out of time at > \(input)"
        }
    }

    private enum CodingKeys: String, CodingKey {
        case file, line, input, reason, expected, found
    }
}
