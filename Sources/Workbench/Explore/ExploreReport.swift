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
    /// else a failure listing each invariant broken, how many runs broke
    /// it, and the first of them.
    package var testResult: TranscriptResult {
        let failures = byInvariant.map { group in
            "\(group.invariant.rawValue): \(group.runs.count) of \(runCount) runs, first run \(group.runs[0].number) (\(group.runs[0].violations[0].detail))"
        }
        return TranscriptResult(
            path: file, kind: .script, passed: failures.isEmpty, failures: failures, isError: false,
            output: "", updatedText: nil, seconds: seconds)
    }
}
