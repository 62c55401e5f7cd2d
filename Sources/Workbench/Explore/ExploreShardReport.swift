import Foundation

/// What one `chatbench explore` wrote with `--report FILE`: the exploration's
/// parameters, and per file how many runs it made, the failing ones and the
/// failures it saved. The reports of the shards of one exploration
/// (`--shard K/N`) merge into what the unsharded exploration finds
/// (``merge(_:)``): the same failing runs, the same first run of each
/// invariant, the same saved scripts.
package struct ExploreShardReport: Sendable, Hashable, Codable {
    package var seed: UInt64
    package var runs: Int
    /// 1-based; 1 of 1 when the exploration was not sharded.
    package var shardIndex: Int
    package var shardCount: Int
    package var faults: String?
    package var noExpects: Bool
    package var files: [File]

    package init(seed: UInt64, runs: Int, shardIndex: Int, shardCount: Int, faults: String?, noExpects: Bool, files: [File] = []) {
        self.seed = seed
        self.runs = runs
        self.shardIndex = shardIndex
        self.shardCount = shardCount
        self.faults = faults
        self.noExpects = noExpects
        self.files = files
    }

    /// One file explored.
    package struct File: Sendable, Hashable, Codable {
        package var file: String
        package var runCount: Int
        package var seconds: Double
        package var failing: [Explorer.Run]
        package var saved: [SavedFailure]

        package init(_ report: ExploreReport, saved: [SavedFailure]) {
            file = report.file
            runCount = report.runCount
            seconds = report.seconds
            failing = report.failing
            self.saved = saved
        }
    }

    /// A failure saved as a script: the stem of its files' names in the
    /// folder of failures, its text, and the shrunk script's text when it
    /// was shrunk.
    package struct SavedFailure: Sendable, Hashable, Codable {
        package var run: Int
        /// What both its files' names are made of: `fragile-seed1-run3`.
        package var stem: String
        package var script: String
        package var shrunk: String?

        package init(run: Int, stem: String, script: String, shrunk: String?) {
            self.run = run
            self.stem = stem
            self.script = script
            self.shrunk = shrunk
        }

        /// The script's file: `fragile-seed1-run3.chat`.
        package var name: String { stem + ".chat" }

        /// The shrunk script's file: `fragile-seed1-run3-shrunk.chat`.
        package var shrunkName: String { stem + "-shrunk.chat" }
    }

    /// Why shard reports do not merge.
    package struct MergeError: Error, Sendable, Equatable, CustomStringConvertible {
        package var description: String
    }

    /// The exploration the shards make together: per file, a report of
    /// all the failing runs, and the saved failures the unsharded
    /// exploration saves (the first run of each invariant). The shards
    /// must be the N shards of one exploration, each once.
    package static func merge(_ reports: [ExploreShardReport]) throws(MergeError) -> (
        reports: [ExploreReport], saved: [SavedFailure]
    ) {
        guard let first = reports.first else { throw MergeError(description: "no shard report to merge") }
        for report in reports {
            let differs =
                report.seed != first.seed
                ? "--seed"
                : report.runs != first.runs
                    ? "--runs"
                    : report.faults != first.faults
                        ? "--faults"
                        : report.noExpects != first.noExpects
                            ? "--no-expects"
                            : report.shardCount != first.shardCount
                                ? "the number of shards"
                                : report.files.map(\.file) != first.files.map(\.file) ? "the files explored" : nil
            if let differs {
                throw MergeError(
                    description:
                        "shard \(report.shardIndex)/\(report.shardCount) is of another exploration than shard \(first.shardIndex)/\(first.shardCount): \(differs) differs"
                )
            }
        }
        let indexes = reports.map(\.shardIndex)
        for index in 1...first.shardCount where !indexes.contains(index) {
            throw MergeError(
                description: "shard \(index)/\(first.shardCount) is missing: give the reports of all \(first.shardCount) shards")
        }
        if let twice = indexes.first(where: { index in indexes.filter { $0 == index }.count > 1 }) {
            throw MergeError(description: "shard \(twice)/\(first.shardCount) is given twice")
        }
        var merged: [ExploreReport] = []
        var saved: [SavedFailure] = []
        for (position, file) in first.files.enumerated() {
            let parts = reports.map { $0.files[position] }
            let report = ExploreReport(
                file: file.file, runs: parts.flatMap(\.failing).sorted { $0.number < $1.number },
                runCount: parts.map(\.runCount).reduce(0, +), seconds: parts.map(\.seconds).reduce(0, +))
            let candidates = parts.flatMap(\.saved)
            for group in report.byInvariant {
                // The first run of each invariant is the first of its shard
                // too, so that shard saved it.
                if let failure = candidates.first(where: { $0.run == group.runs[0].number }) { saved.append(failure) }
            }
            merged.append(report)
        }
        return (merged, saved)
    }
}
