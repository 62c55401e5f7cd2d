/// What `chatbench explore` found in one file: its runs, how long they
/// took, and the failing ones by the invariant each broke first.
package struct ExploreReport: Sendable, Hashable {
    package var file: String
    /// The runs kept: all of them, or (merged from shards) the failing ones.
    package var runs: [Explorer.Run]
    /// How many runs there were.
    package var runCount: Int
    /// Wall time of the file's runs.
    package var seconds: Double

    package init(file: String, runs: [Explorer.Run], runCount: Int? = nil, seconds: Double) {
        self.file = file
        self.runs = runs
        self.runCount = runCount ?? runs.count
        self.seconds = seconds
    }

    package var failing: [Explorer.Run] { runs.filter(\.failed) }

    /// The failing runs grouped by the first invariant each broke, in the
    /// order of `Invariant.allCases`; each group in run order.
    package var byInvariant: [(invariant: Invariant, runs: [Explorer.Run])] {
        let failing = self.failing
        return Invariant.allCases.compactMap { invariant in
            let runs = failing.filter { $0.violations[0].invariant == invariant }
            return runs.isEmpty ? nil : (invariant, runs)
        }
    }

    /// The file as one test case (`--junit`): passed when no run failed,
    /// else a failure per kind of failure, named as what it is (an expect
    /// that failed, a script line that failed, a crash, a hang, or an
    /// invariant that broke), with how many runs it took and the first of them.
    package var testResult: TranscriptResult {
        let failures = byInvariant.map { group in
            let first = group.runs[0]
            let detail = first.violations[0].detail
            let runs = "in \(group.runs.count) of \(runCount) runs, first run \(first.number)"
            switch group.invariant {
            case .expects: return "an expect failed \(runs): \(detail)"
            case .scriptError: return "a script line failed \(runs): \(detail)"
            case .crash: return "a run crashed \(runs): \(detail)"
            case .hang: return "a run hung \(runs): \(detail)"
            default: return "an invariant broke \(runs): \(group.invariant.rawValue) (\(detail))"
            }
        }
        return TranscriptResult(
            path: file, kind: .script, passed: failures.isEmpty, failures: failures, isError: false,
            output: "", updatedText: nil, seconds: seconds)
    }
}
