import Foundation

/// A recorded session as the database keeps it (table `session`).
public struct RecordedSession: Sendable, Hashable, Codable {
    /// The row id, unique within one database: what `replay 7` names.
    public var id: Int64
    /// A random id unique across databases (kept by bundles).
    public var uuid: String
    /// The name given with `--name`, if any.
    public var name: String?
    /// When the session started (wall clock, UTC).
    public var created: Date
    /// When the session ended; nil while it runs, or when the process was killed.
    public var ended: Date?
    /// The chatbench version that recorded it.
    public var toolVersion: String
    public var seed: UInt64
    /// `embedded` or `server`.
    public var mode: String
    /// The server's URL in server mode.
    public var serverURL: String?
    /// `repl`, `script`, `replay`…: how the session was driven.
    public var kind: String
    /// `linux-x86_64`, `macos-arm64`… and the OS version.
    public var platform: String
    /// How many steps it has (computed when listed).
    public var stepCount: Int
    /// The worst status of its steps: `ok`, `expectFailed` or `scriptError`.
    public var status: String

    /// `7 "demo"`, or `7` when unnamed.
    public var label: String { name.map { "\(id) \"\($0)\"" } ?? "\(id)" }
}

/// One recorded step (table `step`).
public struct RecordedStep: Sendable, Hashable, Codable {
    /// 1-based position in the session.
    public var number: Int
    /// The line as typed, redacted.
    public var input: String
    /// What it printed, redacted, each line ending with "\n".
    public var output: String
    /// `ok`, `expectFailed`, `scriptError` or `quit`.
    public var status: String
    /// The virtual clock when the step ended, in milliseconds since the Unix epoch.
    public var virtualTime: Int64
    /// When the step started (wall clock).
    public var wallTime: Date
    /// How long it took (wall clock), in microseconds. Never compared by a replay.
    public var wallMicroseconds: Int64
    /// What happened in the world during the step, in order.
    public var events: [RecordedEvent]
}

/// One event of a step (table `event`).
public struct RecordedEvent: Sendable, Hashable, Codable {
    /// Virtual time in milliseconds since the Unix epoch.
    public var virtualTime: Int64
    /// `client.session`, `w1`, `m1:`, `net:`…
    public var source: String
    /// The whole event line, redacted.
    public var text: String
}

extension StepStatus {
    /// The name the database keeps.
    public var recordedName: String {
        switch self {
        case .ok: "ok"
        case .expectFailed: "expectFailed"
        case .scriptError: "scriptError"
        case .quit: "quit"
        case .interrupted: "interrupted"
        }
    }

    /// Severity for a session's overall status.
    var rank: Int {
        switch self {
        case .ok, .quit: 0
        case .interrupted: 1
        case .expectFailed: 2
        case .scriptError: 3
        }
    }
}
