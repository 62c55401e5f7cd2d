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
        styledStatus(session, current: current).text
    }

    /// ``status(_:current:)``, its worst a failure or a success.
    static func styledStatus(_ session: RecordedSession, current: Bool = false) -> StyledText {
        let worst =
            switch session.status {
            case .scriptError: "script error"
            case .expectFailed: "expect failed"
            case .interrupted: "interrupted"
            case .ok, .quit: "ok"
            }
        var status = StyledText(worst, as: style(ofStatus: session.status))
        if current {
            status.append(", recording")
        } else if session.ended == nil {
            status.append(", unfinished")
        }
        return status
    }

    /// What a session's or a step's status is, for a terminal's colours:
    /// a failed expect or a script error a failure, `ok` a success.
    static func style(ofStatus status: StepStatus) -> OutputStyle? {
        switch status {
        case .ok: .success
        case .expectFailed, .scriptError: .failure
        case .quit, .interrupted: nil
        }
    }

    /// The sessions as a table with a header; `current` gets a `*`. Each
    /// row's start is a time, and its status a failure or a success.
    package static func table(_ sessions: [RecordedSession], current: Int64? = nil) -> [StyledText] {
        guard !sessions.isEmpty else { return [StyledText("no sessions recorded yet")] }
        let header = ["ID", "NAME", "STARTED", "STEPS", "KIND", "STATUS"].map { StyledText($0) }
        let rows = sessions.map { session in
            [
                StyledText((session.id == current ? "*" : "") + String(session.id)), StyledText(session.name ?? "-"),
                StyledText(date(session.created), as: .time), StyledText(String(session.stepCount)), StyledText(session.kind.rawValue),
                styledStatus(session, current: session.id == current),
            ]
        }
        var widths = header.map(\.text.count)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.text.count) }
        }
        func line(_ cells: [StyledText]) -> StyledText {
            var line = StyledText()
            for (index, cell) in cells.enumerated() {
                if index > 0 { line.append("  ") }
                let padding = String(repeating: " ", count: widths[index] - cell.text.count)
                // Numbers right-aligned, text left-aligned; the last column unpadded.
                if index == 0 || index == 3 { line.append(padding) }
                line.append(cell)
                if index != 0, index != 3, index != cells.count - 1 { line.append(padding) }
            }
            return line
        }
        return [line(header)] + rows.map(line)
    }

    /// The first line of `sessions show`. A field recording (an app's
    /// flight recorder, mode `field`) names its app and SDK instead.
    package static func summary(_ session: RecordedSession) -> String { styledSummary(session).text }

    /// ``summary(_:)``, its status a failure or a success.
    static func styledSummary(_ session: RecordedSession) -> StyledText {
        let steps = "\(session.stepCount) step\(session.stepCount == 1 ? "" : "s")"
        let what =
            session.isFieldRecording
            ? "\(session.toolVersion), field recording of an app"
            : "chatbench \(session.toolVersion), seed \(session.seed), \(session.mode.rawValue), \(session.kind.rawValue)"
        var line = StyledText("session \(session.label): \(date(session.created)), \(what), \(steps), ")
        line.append(styledStatus(session))
        return line
    }

    /// `sessions show`: every step's input and output, with the step's
    /// virtual time (events carry their own times in the output). Times
    /// are marked as such, statuses as failures or successes, and each
    /// step's output as it was printed (its recorded styles, v11; plain
    /// for a step recorded before).
    package static func transcript(_ session: RecordedSession, steps: [RecordedStep]) -> [StyledText] {
        var lines = [styledSummary(session), StyledText("\(session.isFieldRecording ? "device" : "platform"): \(session.platform)")]
        lines += clockNotes(session, steps: steps).map { StyledText($0) }
        guard let first = steps.first else { return lines + [StyledText("(no steps)")] }
        let start = startTime(of: steps, first: first, session: session)
        var stepStart = start
        for step in steps {
            // A step starts where the one before it ended.
            lines.append(StyledText())
            // An app's call is stamped when it was made.
            if session.isFieldRecording { stepStart = step.virtualTime }
            var header = StyledText("#\(step.number) ")
            header.append(stamp(stepStart, since: start), as: .time)
            if step.status != .ok { header.append(" (\(step.status.recordedName))", as: style(ofStatus: step.status)) }
            header.append(" > \(step.input)")
            lines.append(header)
            lines += step.styledOutput.lines.dropLast()
            // An app's calls print nothing: what followed them is what the client said.
            if session.isFieldRecording {
                for event in step.events {
                    var line = StyledText("  ")
                    line.append(stamp(event.virtualTime, since: start), as: .eventTime)
                    line.append(" \(event.text)")
                    lines.append(line)
                }
            }
            stepStart = step.virtualTime
        }
        return lines
    }

    /// Where a field recording's device clock was set while it recorded
    /// (schema v10: its calls carry the wall clock beside the monotonic
    /// one, and the two part by a second or more between two calls):
    /// `device clock: set back 1h between #5 and #6 (it read 2026-01-01
    /// 00:00:05 UTC at #6); times here are its monotonic clock`. None for
    /// other sessions and for field recordings made before v10.
    package static func clockNotes(_ session: RecordedSession, steps: [RecordedStep]) -> [String] {
        guard session.isFieldRecording else { return [] }
        var notes: [String] = []
        var last: (number: Int, offset: Int64)?
        for step in steps {
            guard let wall = step.deviceClock else { continue }
            let offset = wall - step.virtualTime
            defer { last = (step.number, offset) }
            guard let before = last, abs(offset - before.offset) >= 1000 else { continue }
            let jump = offset - before.offset
            // To the second: the two clocks are read a moment apart.
            let seconds = (abs(jump) + 500) / 1000 * 1000
            notes.append(
                "device clock: set \(jump < 0 ? "back" : "forward") \(Format.duration(milliseconds: seconds)) between #\(before.number) and #\(step.number) (it read \(date(Date(timeIntervalSince1970: Double(wall) / 1000))) at #\(step.number)); times here are its monotonic clock"
            )
        }
        return notes
    }

    /// The world's start: the simulation epoch, or the first event if
    /// earlier; against a server (real time), when the session began.
    static func startTime(of steps: [RecordedStep], first: RecordedStep, session: RecordedSession) -> Int64 {
        let origin =
            session.mode != .embedded
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
