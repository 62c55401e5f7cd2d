import ChatCore
import Synchronization

/// The ordered log of what happened in the world during a step: one typed
/// value per fact, with its virtual time and sequence number, appended the
/// moment it happens (on the thread that pumps the world), so its order
/// is the world's.
final class EventLog: Sendable {
    struct Entry: Sendable, Hashable {
        var time: Instant
        /// Order among everything logged in the session.
        var seq: UInt64
        var event: WorldEvent
        /// The event's line, rendered when asked for (by a watcher's
        /// history when the event is logged, by the step's output when it
        /// ends) rather than kept beside the event: a step of 100,000
        /// emissions held each line twice until it ended (issue 31).
        var text: String { event.text }
    }

    private let state = Mutex<(next: UInt64, entries: [Entry])>((0, []))

    /// Logs `event` at `time`; returns its entry.
    @discardableResult
    func append(_ time: Instant, _ event: WorldEvent) -> Entry {
        state.withLock { s in
            let entry = Entry(time: time, seq: s.next, event: event)
            s.next += 1
            s.entries.append(entry)
            return entry
        }
    }

    /// Everything logged since the last call. The log hands its buffer
    /// over and starts an empty one: emptying a buffer the caller still
    /// shares while keeping its capacity would allocate a second buffer as
    /// large as the step's biggest, held until the session ends (36 MB
    /// after a step of 100,000 watcher emissions).
    func take() -> [Entry] {
        state.withLock { s in
            defer { s.entries = [] }
            return s.entries
        }
    }

    /// Entries the log's buffer has room for (what it holds between steps).
    var retainedCapacity: Int { state.withLock { $0.entries.capacity } }

    /// `[00:00:01.500] text`, the stamp marked as a time (a history's line).
    static func stamped(_ time: Instant, since start: Instant, _ text: String) -> StyledText {
        var line = StyledText(stamp(time, since: start), as: .time)
        line.append(" " + text)
        return line
    }

    /// `[00:00:01.250]`: time since the world started; from a day on,
    /// with the days first: `[1d 02:03:04.005]`.
    static func stamp(_ time: Instant, since start: Instant) -> String {
        let ms = max(0, time.milliseconds - start.milliseconds)
        let days = ms / 86_400_000
        let hours = ms / 3_600_000 % 24
        let minutes = ms / 60_000 % 60
        let seconds = ms / 1000 % 60
        func pad(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "[\(days > 0 ? "\(days)d " : "")\(pad(hours, 2)):\(pad(minutes, 2)):\(pad(seconds, 2)).\(pad(ms % 1000, 3))]"
    }
}
