import ChatSDK
import Foundation

/// One row of a session's traffic tape (table `traffic`): an entry as
/// stored, redacted, with the step that carried it.
package struct RecordedTraffic: Sendable, Hashable, Codable {
    /// Position in the session's tape, from 1.
    package var seq: Int
    /// The step whose result carried it; nil when it crossed outside any step.
    package var step: Int?
    /// When the step that carried it started (wall clock). The entry's own
    /// moment is `entry.time`.
    package var wallTime: Date
    /// What crossed, with its summary and body redacted.
    package var entry: TrafficEntry

    package init(seq: Int, step: Int?, wallTime: Date, entry: TrafficEntry) {
        self.seq = seq
        self.step = step
        self.wallTime = wallTime
        self.entry = entry
    }
}
