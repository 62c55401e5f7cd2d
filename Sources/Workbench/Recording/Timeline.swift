/// `sessions show ID --timeline`: a session drawn as client ↔ server
/// exchanges and watcher emissions over virtual time, one row per event.
public enum Timeline {
    /// Width of the lane between the client and the server.
    static let lane = 34

    public static func draw(_ session: RecordedSession, steps: [RecordedStep]) -> [String] {
        var lines = [SessionListing.summary(session)]
        guard let first = steps.first else { return lines + ["(no steps)"] }
        let start = SessionListing.startTime(of: steps, first: first, session: session)
        let blank = String(repeating: " ", count: 14)
        lines.append("\(blank)  client\(String(repeating: " ", count: lane - 2))server")
        var stepStart = start
        for step in steps {
            // A step starts where the one before it ended.
            let began = min(stepStart, step.events.first?.virtualTime ?? stepStart)
            lines.append("\(SessionListing.stamp(began, since: start))  ▶ #\(step.number) \(step.input)")
            stepStart = step.virtualTime
            for event in step.events {
                let stamp = SessionListing.stamp(event.virtualTime, since: start)
                lines.append("\(stamp)  \(row(for: event))")
            }
        }
        return lines
    }

    /// `net: sendMessage → ok` becomes an arrow to the server and back;
    /// watcher emissions get a diamond; other events a bullet, on the client.
    static func row(for event: RecordedEvent) -> String {
        let text = event.text
        if event.source == "net:" {
            let body = text.dropFirst("net: ".count)
            let parts = body.components(separatedBy: " → ")
            let request = parts[0]
            let answer = parts.count > 1 ? parts[1...].joined(separator: " → ") : ""
            let label = " \(request) "
            let dashes = max(2, lane - label.count - 1)
            let left = dashes / 2
            return "│" + String(repeating: "─", count: left) + label + String(repeating: "─", count: dashes - left) + "▶│ " + answer
        }
        if event.source.hasPrefix("w"), event.source.dropFirst().allSatisfy(\.isNumber) || text.contains(" emits ") {
            return "◆ " + text
        }
        return "• " + text
    }
}
