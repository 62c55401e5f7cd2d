import Foundation

/// Reduces a transcript that fails as a test (`chatbench test`) to a
/// smallest one that fails the same way (`chatbench shrink`, issue 29).
///
/// Its failure is its first failing step with what that step found: an
/// `expect` that does not hold (`expect m2.state == failed — expected ==
/// "failed", found "sent"`), or output that differs from the expected (the
/// step's input, the first expected line missing and the first line found
/// instead). A smaller transcript fails the same way when that step, kept
/// with its expected output, fails with the same signature, and no step
/// before it fails first: no `expect` fails and no line is an error its
/// expected output did not show. The steps before it may print otherwise
/// (fewer of them run): the result expects what they print now.
package struct TranscriptShrinker: Sendable {
    package var seed: UInt64 = 1

    package init() {}

    package struct Result: Sendable, Hashable {
        /// The smallest transcript: the steps kept, each expecting what it
        /// prints now but the failing one, which keeps its expected output.
        /// Its header is its seed and where it runs (`# embedded-only:`).
        package var transcript: Transcript
        package var signature: String
        package var trials: Int
    }

    /// One step of a trial.
    struct Step: Sendable, Hashable {
        var input: String
        var expected: [String]
        /// Whether its output is compared with `expected` (the failing
        /// step's; every step's when looking for the failure).
        var compared: Bool
    }

    /// nil when `transcript` passes as a test.
    package func shrink(_ transcript: Transcript) throws -> Result? {
        let seed = self.seed
        // A comment (`> # …`) prints nothing and fails nothing.
        let steps = Self.commands(of: transcript).map { Step(input: $0.input, expected: $0.expected, compared: true) }
        let (found, _) = try Self.trial(steps, seed: seed)
        guard let found else { return nil }
        // Nothing after the failing step counts; before it, only whether a
        // step fails first.
        var candidate = steps[...found.index].map { Step(input: $0.input, expected: $0.expected, compared: false) }
        candidate[found.index].compared = true
        guard
            let reduced = try Shrinker.reduce(
                candidate, input: \.input, replacing: { Step(input: $1, expected: $0.expected, compared: $0.compared) },
                pinned: \.compared, signature: { try Self.trial($0, seed: seed).failure?.signature })
        else { return nil }
        // Once more, for what the steps kept print.
        let (_, outputs) = try Self.trial(reduced.elements, seed: seed)
        let blocks = reduced.elements.enumerated().map { index, step in
            Transcript.Block(
                input: step.input, line: 0,
                expected: step.compared ? step.expected : outputs[index].map(Transcript.expectedLine), trailingBlankLines: 0)
        }
        var result = transcript
        result.kind = .transcript
        result.header = ["# seed: \(seed)"]
        if let reason = transcript.embeddedOnly { result.header.append("# embedded-only: \(reason)") }
        if let reason = transcript.serverOnly { result.header.append("# server-only: \(reason)") }
        result.blocks = blocks
        return Result(transcript: result, signature: reduced.signature, trials: reduced.trials + 2)
    }

    /// The steps of `transcript` that are commands, not comments.
    package static func commands(of transcript: Transcript) -> [Transcript.Block] {
        transcript.blocks.filter { !$0.input.trimmingCharacters(in: .whitespaces).hasPrefix("#") }
    }

    /// Runs `steps` in a fresh world: the first failing step (its index
    /// and signature; nil when none fails) and what each step printed.
    static func trial(_ steps: [Step], seed: UInt64) throws -> (failure: (index: Int, signature: String)?, outputs: [[String]]) {
        var options = WorkbenchOptions()
        options.seed = seed
        let session = try WorkbenchSession(options: options)
        let matcher = TranscriptMatcher()
        var outputs: [[String]] = []
        for (index, step) in steps.enumerated() {
            let input = session.reveal(step.input)
            let result = session.execute(input)
            let found = TranscriptRunner.lines(of: session.recordedStep(number: index + 1, input: input, result: result).output)
            outputs.append(found)
            let matches = matcher.matches(expected: step.expected, actual: found)
            if result.status == .expectFailed {
                return (
                    (index, "an expect failed: " + Explorer.failure(of: step.input, result) + session.referents(of: step.input)),
                    outputs
                )
            }
            if step.compared, !session.isRecordingCommand(input), !matches {
                return ((index, differs(step, found: found, matcher: matcher)), outputs)
            }
            if result.status == .scriptError, !matches {
                return ((index, "a line failed: " + Explorer.failure(of: step.input, result)), outputs)
            }
            if result.status == .quit { break }
        }
        return (nil, outputs)
    }

    /// `output differs at > INPUT: expected "A", found "B"`: the step's
    /// first expected line missing and first line found instead (`nothing`
    /// when there is none).
    static func differs(_ step: Step, found: [String], matcher: TranscriptMatcher) -> String {
        let diff = LineDiff.lines(expected: step.expected, actual: found, anyLines: TranscriptMatcher.anyLines) {
            matcher.lineMatches($0, $1)
        }
        func first(_ mark: String) -> String {
            diff.first { $0.hasPrefix(mark) }.map { "\"\($0.dropFirst(2))\"" } ?? "nothing"
        }
        let input = step.input.trimmingCharacters(in: .whitespaces)
        return "output differs at > \(input): expected \(first("- ")), found \(first("+ "))"
    }
}
