/// The progress of `chatbench explore` over one file: runs done, runs per
/// second, failures so far, and the time left at that pace.
package struct ExploreProgress: Sendable, Hashable {
    package var file: String
    package var total: Int
    package var done: Int
    package var failed: Int
    /// Wall time since the file's runs started.
    package var seconds: Double

    package init(file: String, total: Int, done: Int = 0, failed: Int = 0, seconds: Double = 0) {
        self.file = file
        self.total = total
        self.done = done
        self.failed = failed
        self.seconds = seconds
    }

    /// `explore f.chat: 120/1000 runs, 48 runs/s, 3 failed, ETA 18s`.
    package var line: String {
        var text = "explore \(file): \(done)/\(total) runs"
        guard done > 0, seconds > 0 else { return text + ", \(failed) failed" }
        let rate = Double(done) / seconds
        text += ", \(Self.rate(rate)) runs/s, \(failed) failed"
        let left = Double(total - done) / rate
        return text + ", ETA \(Format.duration(milliseconds: Int64(left.rounded(.up)) * 1000))"
    }

    /// Runs per second as people read them: `48`, `2.5`, `0.7`.
    package static func rate(_ rate: Double) -> String {
        rate < 10 ? String(format: "%.1f", rate) : String(Int(rate.rounded()))
    }

    /// Whether a plain report (not at a terminal) is due when `done` runs
    /// are done: at each tenth of the runs, the last excepted (the summary
    /// says it). The same runs report whatever the machine's speed.
    package static func isMilestone(_ done: Int, of total: Int) -> Bool {
        guard done > 0, done < total else { return false }
        return done * 10 / total != (done - 1) * 10 / total
    }
}
