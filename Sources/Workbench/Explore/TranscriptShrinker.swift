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
        package var signature: FailureSignature
        package var trials: Int
    }

    /// One step of a trial.
    package struct Step: Sendable, Hashable, Codable {
        package var input: String
        package var expected: [String]
        /// Whether its output is compared with `expected` (the failing
        /// step's; every step's when looking for the failure).
        package var compared: Bool
    }

    /// How a trial ended: its first failing step, if any, and what each
    /// step that ran printed.
    package struct Trial: Sendable, Hashable, Codable {
        package struct Failure: Sendable, Hashable, Codable {
            package var index: Int
            package var signature: FailureSignature

            package init(index: Int, signature: FailureSignature) {
                self.index = index
                self.signature = signature
            }
        }
        package var failure: Failure?
        package var outputs: [[String]]

        package init(failure: Failure?, outputs: [[String]]) {
            self.failure = failure
            self.outputs = outputs
        }
    }

    /// nil when `transcript` passes as a test. Each trial runs through
    /// `trial`: in this process by default; `chatbench shrink` runs them
    /// in a child process, so that a trial that crashes is a failure of
    /// its own (its signature says so) and the shrink goes on.
    package func shrink(_ transcript: Transcript, trial: ([Step], UInt64) throws -> Trial = { try Self.trial($0, seed: $1) })
        throws -> Result?
    {
        let seed = self.seed
        // A comment (`> # …`) prints nothing and fails nothing.
        let steps = Self.commands(of: transcript).map { Step(input: $0.input, expected: $0.expected, compared: true) }
        guard let found = try trial(steps, seed).failure else { return nil }
        // Nothing after the failing step counts; before it, only whether a
        // step fails first.
        var candidate = steps[...found.index].map { Step(input: $0.input, expected: $0.expected, compared: false) }
        candidate[found.index].compared = true
        guard
            let reduced = try Shrinker.reduce(
                candidate, input: \.input, replacing: { Step(input: $1, expected: $0.expected, compared: $0.compared) },
                pinned: \.compared, signature: { try trial($0, seed).failure?.signature })
        else { return nil }
        // Once more, for what the steps kept print (a step a crash stopped
        // printed nothing).
        let outputs = try trial(reduced.elements, seed).outputs
        let blocks = reduced.elements.enumerated().map { index, step in
            Transcript.Block(
                input: step.input, line: 0,
                expected: step.compared ? step.expected : (index < outputs.count ? outputs[index] : []).map(Transcript.expectedLine),
                trailingBlankLines: 0)
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
    /// `willRun` and `ran` are told of each step before and after it runs
    /// (a worker reports them, so that a crash says where it happened).
    package static func trial(
        _ steps: [Step], seed: UInt64, willRun: (Int, Step) -> Void = { _, _ in }, ran: (Int, [String]) -> Void = { _, _ in }
    ) throws -> Trial {
        var options = WorkbenchOptions()
        options.seed = seed
        let session = try WorkbenchSession(options: options)
        let matcher = TranscriptMatcher()
        var outputs: [[String]] = []
        func failed(_ index: Int, _ signature: FailureSignature) -> Trial {
            Trial(failure: Trial.Failure(index: index, signature: signature), outputs: outputs)
        }
        for (index, step) in steps.enumerated() {
            willRun(index, step)
            let input = session.reveal(step.input)
            let result = session.execute(input)
            let found = TranscriptRunner.lines(of: session.recordedStep(number: index + 1, input: input, result: result).output)
            outputs.append(found)
            ran(index, found)
            let matches = matcher.matches(expected: step.expected, actual: found)
            if result.status == .expectFailed {
                return failed(index, .expectFailed(Explorer.failure(of: step.input, result), referents: session.referents(of: step.input)))
            }
            if step.compared, !session.isRecordingCommand(input), !matches {
                return failed(index, differs(step, found: found, matcher: matcher))
            }
            if result.status == .scriptError, !matches {
                return failed(index, .lineFailed(Explorer.failure(of: step.input, result)))
            }
            if result.status == .quit { break }
        }
        return Trial(failure: nil, outputs: outputs)
    }

    /// The step's output differs: its first expected line missing and first
    /// line found instead (nil when there is none).
    static func differs(_ step: Step, found: [String], matcher: TranscriptMatcher) -> FailureSignature {
        let diff = LineDiff.diff(expected: step.expected, actual: found, anyLines: TranscriptMatcher.anyLines) {
            matcher.lineMatches($0, $1)
        }
        var (missing, instead): (String?, String?) = (nil, nil)
        for line in diff {
            switch line {
            case .removed(let line) where missing == nil: missing = line
            case .added(let line) where instead == nil: instead = line
            default: break
            }
        }
        return .outputDiffers(input: step.input.trimmingCharacters(in: .whitespaces), expected: missing, found: instead)
    }
}
