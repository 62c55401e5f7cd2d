import ChatSDK

/// `sessions show ID --timeline`: a session drawn as client ↔ server
/// exchanges and watcher emissions over virtual time, one row per event;
/// with its traffic rows, also the realtime frames, the requests lost on
/// the way and the network's faults.
package enum Timeline {
    /// Width of the lane between the client and the server.
    static let lane = 34

    package static func draw(_ session: RecordedSession, steps: [RecordedStep], traffic: [RecordedTraffic] = []) -> [String] {
        var lines = [SessionListing.summary(session)] + SessionListing.clockNotes(session, steps: steps)
        guard let first = steps.first else { return lines + ["(no steps)"] }
        let start = SessionListing.startTime(of: steps, first: first, session: session)
        let blank = String(repeating: " ", count: 14)
        lines.append("\(blank)  client\(String(repeating: " ", count: lane - 2))server")
        var stepStart = start
        let devices = DeviceClients(session: session, steps: steps)
        // A field recording has no `net:` events: its requests are drawn from its tape.
        let extra = Builder.rowsByStep(session.isFieldRecording ? traffic : traffic.filter(drawn), lastStep: steps.last?.number)
        let requests = Dictionary(
            traffic.filter { $0.entry.channel == .http && $0.entry.direction == .out }.map { ($0.entry.exchangeKey, $0.entry.summary) },
            uniquingKeysWith: { first, _ in first })
        for step in steps {
            // A step starts where the one before it ended.
            // An app's call (a field recording's step) is stamped when it was made.
            let began = session.isFieldRecording ? step.virtualTime : min(stepStart, step.events.first?.virtualTime ?? stepStart)
            lines.append("\(SessionListing.stamp(began, since: start))  ▶ #\(step.number) \(step.input)")
            stepStart = step.virtualTime
            var rows = step.events.map { (time: $0.virtualTime, text: row(for: $0)) }
            for item in extra[step.number] ?? [] {
                let request = requests[item.entry.exchangeKey]
                let device = item.entry.deviceId.map(devices.label(ofDevice:)) ?? item.entry.origin.label
                rows.append((item.entry.time.milliseconds, row(for: item.entry, request: request, device: device)))
            }
            // Stable: events first at the same moment.
            for (time, text) in rows.enumerated().sorted(by: { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }).map(\.element)
            {
                lines.append("\(SessionListing.stamp(time, since: start))  \(text)")
            }
        }
        return lines
    }

    /// The traffic rows the event lines do not already show: frames and
    /// the event stream's openings, requests lost on the way, the network's
    /// rows (requests that reached the server show as `net:` events).
    static func drawn(_ row: RecordedTraffic) -> Bool {
        let entry = row.entry
        switch entry.origin {
        case .network: return true
        case .otherSide: return false
        case .device: break
        }
        if entry.channel == .ws { return true }
        return entry.direction == .in && entry.kind.isLost
    }

    /// A frame: an arrow back to the client (`◀┄ event #5 messageCreated ┄│`);
    /// an opening or close: a dotted arrow to the server; a lost request:
    /// an arrow that breaks (`✕`); a network row: a lightning bolt.
    static func row(for entry: TrafficEntry, request: String?, device: String) -> String {
        if entry.origin == .network { return "⚡ network: \(entry.summary)" }
        if entry.channel == .http, entry.direction == .in, !entry.kind.isLost {
            let label = " \(request ?? "request") "
            let dashes = max(2, lane - label.count - 1)
            return "│◀" + String(repeating: "─", count: dashes / 2) + label + String(repeating: "─", count: dashes - dashes / 2)
                + "│ \(entry.summary) (\(device))"
        }
        if entry.channel == .http, entry.direction == .out {
            let label = " \(entry.summary) "
            let dashes = max(2, lane - label.count - 1)
            return "│" + String(repeating: "─", count: dashes / 2) + label + String(repeating: "─", count: dashes - dashes / 2)
                + "▶│ \(device)"
        }
        if entry.channel == .http {
            let label = " \(request ?? "request") "
            let dashes = max(2, lane - label.count - 1)
            return "│" + String(repeating: "─", count: dashes / 2) + label + String(repeating: "─", count: dashes - dashes / 2)
                + "✕ \(entry.summary) (\(device))"
        }
        let label = " \(entry.summary) "
        let dashes = max(2, lane - label.count - 1)
        let left = String(repeating: "┄", count: dashes / 2)
        let right = String(repeating: "┄", count: dashes - dashes / 2)
        return entry.direction == .in ? "│◀" + left + label + right + "│ \(device)" : "│" + left + label + right + "▶│ \(device)"
    }

    /// A request on the network (`net: sendMessage → ok`) becomes an arrow
    /// to the server and back; a watcher's lines get a diamond; other
    /// events a bullet, on the client. By the event's kind, never its text.
    static func row(for event: RecordedEvent) -> String {
        switch event.kind {
        case .request(let name, let answer):
            let label = " \(name) "
            let dashes = max(2, lane - label.count - 1)
            let left = dashes / 2
            return "│" + String(repeating: "─", count: left) + label + String(repeating: "─", count: dashes - left) + "▶│ " + answer.text
        case let kind where kind.isWatcher: return "◆ " + event.text
        default: return "• " + event.text
        }
    }
}
