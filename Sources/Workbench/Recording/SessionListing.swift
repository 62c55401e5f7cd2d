import ChatCore
import Foundation

/// Text for `sessions` (the CLI's and the REPL's): one table, one format.
package enum SessionListing {
    /// `2026-05-01 10:00:03 UTC`.
    package static func date(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d-%02d-%02d %02d:%02d:%02d UTC", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
    }

    /// `ok`, `expect failed`, `script error`; `unfinished` is added when the
    /// session never ended (still running, or its process was killed).
    package static func status(_ session: RecordedSession, current: Bool = false) -> String {
        let worst =
            switch session.status {
            case "scriptError": "script error"
            case "expectFailed": "expect failed"
            case "interrupted": "interrupted"
            default: "ok"
            }
        if current { return worst + ", recording" }
        return session.ended == nil ? worst + ", unfinished" : worst
    }

    /// The sessions as a table with a header; `current` gets a `*`.
    package static func table(_ sessions: [RecordedSession], current: Int64? = nil) -> [String] {
        guard !sessions.isEmpty else { return ["no sessions recorded yet"] }
        let header = ["ID", "NAME", "STARTED", "STEPS", "KIND", "STATUS"]
        let rows = sessions.map { session in
            [
                (session.id == current ? "*" : "") + String(session.id), session.name ?? "-", date(session.created),
                String(session.stepCount), session.kind, status(session, current: session.id == current),
            ]
        }
        var widths = header.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                // Numbers right-aligned, text left-aligned; the last column unpadded.
                if index == 0 || index == 3 { return String(repeating: " ", count: widths[index] - cell.count) + cell }
                if index == cells.count - 1 { return cell }
                return cell + String(repeating: " ", count: widths[index] - cell.count)
            }.joined(separator: "  ")
        }
        return [line(header)] + rows.map(line)
    }

    /// The first line of `sessions show`. A field recording (an app's
    /// flight recorder, mode `field`) names its app and SDK instead.
    package static func summary(_ session: RecordedSession) -> String {
        let steps = "\(session.stepCount) step\(session.stepCount == 1 ? "" : "s")"
        if session.isFieldRecording {
            return
                "session \(session.label): \(date(session.created)), \(session.toolVersion), field recording of an app, \(steps), \(status(session))"
        }
        return
            "session \(session.label): \(date(session.created)), chatbench \(session.toolVersion), seed \(session.seed), \(session.mode), \(session.kind), \(steps), \(status(session))"
    }

    /// `sessions show`: every step's input and output, with the step's
    /// virtual time (events carry their own times in the output).
    package static func transcript(_ session: RecordedSession, steps: [RecordedStep]) -> [String] {
        var lines = [summary(session), "\(session.isFieldRecording ? "device" : "platform"): \(session.platform)"]
        guard let first = steps.first else { return lines + ["(no steps)"] }
        let start = startTime(of: steps, first: first, session: session)
        var stepStart = start
        for step in steps {
            // A step starts where the one before it ended.
            lines.append("")
            // An app's call is stamped when it was made.
            if session.isFieldRecording { stepStart = step.virtualTime }
            lines.append(
                "#\(step.number) \(stamp(stepStart, since: start))\(step.status == "ok" ? "" : " (\(step.status))") > \(step.input)")
            lines += step.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
            // An app's calls print nothing: what followed them is what the client said.
            if session.isFieldRecording {
                lines += step.events.map { "  \(stamp($0.virtualTime, since: start)) \($0.text)" }
            }
            stepStart = step.virtualTime
        }
        return lines
    }

    /// The world's start: the simulation epoch, or the first event if
    /// earlier; against a server (real time), when the session began.
    static func startTime(of steps: [RecordedStep], first: RecordedStep, session: RecordedSession) -> Int64 {
        let origin =
            session.mode != "embedded"
            ? Int64((session.created.timeIntervalSince1970 * 1000).rounded(.down))
            : Instant.simulationEpochMilliseconds
        let earliest = steps.lazy.flatMap(\.events).map(\.virtualTime).min() ?? first.virtualTime
        return min(origin, earliest, first.virtualTime)
    }

    /// `[00:00:01.250]`.
    static func stamp(_ milliseconds: Int64, since start: Int64) -> String {
        let ms = max(0, milliseconds - start)
        return String(format: "[%02lld:%02lld:%02lld.%03lld]", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
    }
}

extension Instant {
    static let simulationEpochMilliseconds = Instant.simulationEpoch.milliseconds
}
