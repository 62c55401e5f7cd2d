/// How a failing script or transcript fails: what a smaller one must keep
/// to fail the same way (``Shrinker``, ``TranscriptShrinker``). Shrinking
/// compares these values; the text (``description``) is made only where it
/// is shown, as in the `# shrunk from FILE: …` line.
package enum FailureSignature: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A script's first violation (``Explorer/signature(of:)``): its
    /// invariant, and for an expect, a script error or a crash, what it
    /// says (`detail`) and what the messages its line names are
    /// (`referents`, an expect's and a script error's).
    case violation(Invariant, detail: String? = nil, referents: String? = nil)
    /// A transcript's step whose `expect` failed: the line with what it
    /// found (``Explorer/failure(of:_:)``) and what its messages are.
    case expectFailed(String, referents: String)
    /// A transcript's step printed other than expected: its input, the
    /// first expected line missing and the first line found instead (nil:
    /// none).
    case outputDiffers(input: String, expected: String?, found: String?)
    /// A transcript's step is not understood, and its expected output did
    /// not say so: the line with why.
    case lineFailed(String)
    /// A transcript's step crashed its worker: how (``ExploreWorker``'s
    /// `signal 4 (SIGILL): …`).
    case stepCrashed(String)
    /// A transcript's step did not end within the time limit: how.
    case stepHung(String)

    // Each unlabelled value under a key that names it, not Swift's `_0`.
    enum ViolationCodingKeys: String, CodingKey {
        case _0 = "invariant"
        case detail, referents
    }
    enum ExpectFailedCodingKeys: String, CodingKey {
        case _0 = "failure"
        case referents
    }
    enum LineFailedCodingKeys: String, CodingKey { case _0 = "failure" }
    enum StepCrashedCodingKeys: String, CodingKey { case _0 = "how" }
    enum StepHungCodingKeys: String, CodingKey { case _0 = "how" }

    /// `the script's expects: expect m1.state == sent — …`, `no hang`,
    /// `output differs at > send c1 text hi: expected "…", found nothing`.
    package var description: String {
        switch self {
        case .violation(let invariant, let detail?, let referents): "\(invariant.rawValue): \(detail)\(referents ?? "")"
        case .violation(let invariant, nil, _): invariant.rawValue
        case .expectFailed(let failure, let referents): "an expect failed: \(failure)\(referents)"
        case .outputDiffers(let input, let expected, let found):
            "output differs at > \(input): expected \(Self.quoted(expected)), found \(Self.quoted(found))"
        case .lineFailed(let failure): "a line failed: \(failure)"
        case .stepCrashed(let how): "the step crashed (\(how))"
        case .stepHung(let how): "the step hung (\(how))"
        }
    }

    /// `"LINE"`, or `nothing`.
    private static func quoted(_ line: String?) -> String {
        line.map { "\"\($0)\"" } ?? "nothing"
    }
}
