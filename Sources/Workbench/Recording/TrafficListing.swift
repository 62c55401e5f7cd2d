/// `sessions show ID --traffic`: a session's tape, one line per entry.
///
/// ```
/// [+00:00:00.020] step 1  alice-device  http → POST /v1/identity
/// [+00:00:00.040] step 1  alice-device  http ← ok session
/// [+00:00:00.060] step 2  alice-device  ws   → open after=-
/// ```
package enum TrafficListing {
    package static func lines(_ session: RecordedSession, steps: [RecordedStep], traffic: [RecordedTraffic]) -> [String] {
        var lines = [SessionListing.summary(session)]
        guard !traffic.isEmpty else {
            return lines + ["(no traffic: nothing crossed the network in this session)"]
        }
        let start = startTime(session, steps: steps, traffic: traffic)
        let stepWidth = traffic.map { step($0).count }.max() ?? 0
        let deviceWidth = traffic.map(\.entry.origin.label.count).max() ?? 0
        for row in traffic {
            let entry = row.entry
            let stamp = "[+" + SessionListing.stamp(entry.time.milliseconds, since: start).dropFirst()
            let arrow = entry.direction == .out ? "→" : "←"
            lines.append(
                "\(stamp) \(pad(step(row), stepWidth))  \(pad(entry.origin.label, deviceWidth))  \(pad(entry.channel.rawValue, 4)) \(arrow) \(entry.summary)"
            )
        }
        return lines
    }

    /// `step 3`, or `-` for traffic outside any step.
    private static func step(_ row: RecordedTraffic) -> String {
        row.step.map { "step \($0)" } ?? "-"
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    /// Where the session's clock started: the same zero as `show` and
    /// `--timeline` (``SessionListing/startTime(of:first:session:)``), so that
    /// one moment has one time in all three (issue 30: in server mode the
    /// tape's times were 77–86 ms off the others'); the first entry when the
    /// session has no step.
    static func startTime(_ session: RecordedSession, steps: [RecordedStep], traffic: [RecordedTraffic]) -> Int64 {
        guard let first = steps.first else { return traffic.map(\.entry.time.milliseconds).min() ?? 0 }
        return SessionListing.startTime(of: steps, first: first, session: session)
    }
}
