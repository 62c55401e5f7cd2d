import Foundation

/// A recorded session as the database keeps it (table `session`).
package struct RecordedSession: Sendable, Hashable, Codable {
    /// The row id, unique within one database: what `replay 7` names.
    package var id: Int64
    /// A random id unique across databases (kept by bundles).
    package var uuid: String
    /// The name given with `--name`, if any.
    package var name: String?
    /// When the session started (wall clock, UTC).
    package var created: Date
    /// When the session ended; nil while it runs, or when the process was killed.
    package var ended: Date?
    /// The chatbench version that recorded it.
    package var toolVersion: String
    package var seed: UInt64
    /// Which world it ran in (the `mode` column keeps its name).
    package var mode: SessionMode
    /// The server's URL in server mode.
    package var serverURL: String?
    /// How the session was driven (the `kind` column keeps its name).
    package var kind: SessionKind
    /// `linux-x86_64`, `macos-arm64`… and the OS version.
    package var platform: String
    /// How many steps it has (computed when listed).
    package var stepCount: Int
    /// The worst status of its steps: `ok`, `interrupted`, `expectFailed`
    /// or `scriptError`.
    package var status: StepStatus
    /// In server mode, the random component of the session's client-side
    /// ids (``DeviceIDTag``, `session.id_tag`, v11); nil in the embedded
    /// world, a field recording, and a server session recorded before v11.
    package var idTag: String?

    /// `7 "demo"`, or `7` when unnamed.
    package var label: String { name.map { "\(id) \"\($0)\"" } ?? "\(id)" }
    /// Recorded by an app's flight recorder (ChatSDK's `diagnostics`), not the workbench.
    package var isFieldRecording: Bool { mode == .field }
}

/// Which world a recorded session ran in: the `mode` column keeps its
/// raw value, and every reader decides by the value (issue 30).
package enum SessionMode: String, Sendable, Hashable, Codable {
    /// The embedded world, on its virtual clock.
    case embedded
    /// Against a running server, in real time (its traffic is a tape).
    case server
    /// An app's flight recorder on a device (ChatSDK's `diagnostics`).
    case field
}

/// How a recorded session was driven: the `kind` column keeps its raw
/// value, and every reader decides by the value (issue 30).
package enum SessionKind: String, Sendable, Hashable, Codable {
    /// At a terminal, line by line.
    case repl
    /// Piped input, `-c LINE` or `run FILE`.
    case script
    /// A transcript run by `chatbench test` (its HTML page; never stored).
    case test
    /// An app's flight recorder (ChatSDK's `diagnostics`).
    case app
}

/// One recorded step (table `step`).
package struct RecordedStep: Sendable, Hashable, Codable {
    /// 1-based position in the session.
    package var number: Int
    /// The line as typed, redacted.
    package var input: String
    /// What it printed, redacted, each line ending with "\n".
    package var output: String
    /// How it ended (the `status` column keeps its ``StepStatus/recordedName``).
    package var status: StepStatus
    /// The session's clock when the step ended, in milliseconds since the
    /// Unix epoch: the virtual clock, or the wall clock against a server;
    /// for a field recording's call, when the app made it: from schema v10
    /// on the device's monotonic clock counted from the session's start
    /// (`created` + `step.monotonic_time`), before that on its wall clock.
    package var virtualTime: Int64
    /// When the step started (wall clock).
    package var wallTime: Date
    /// How long it took (wall clock), in microseconds. Never compared by a replay.
    package var wallMicroseconds: Int64
    /// What happened in the world during the step, in order.
    package var events: [RecordedEvent]
    /// For a step Ctrl-C stopped in the embedded world: how far the world
    /// had run in it (``StepResult/stoppedAfterTicks``); a replay stops there.
    package var stoppedAfterTicks: Int?
    /// A field recording's call as a value: ChatSDK's ``AppCall`` as JSON
    /// (`step.call`, v6), read with ``FieldCall/init(_:)``. Nil for the
    /// workbench's own steps and for calls recorded before v6.
    package var callJSON: String? = nil
    /// A field recording's call from schema v10: its time on the device's
    /// wall clock (`step.virtual_time`), ms since the Unix epoch, while
    /// ``virtualTime`` is on its monotonic clock: where the two part, the
    /// device's clock was set (``SessionListing/clockNotes(_:steps:)``).
    /// Nil otherwise.
    package var deviceClock: Int64? = nil
    /// What each styled part of ``output`` is (`step.styles`, v11), as the
    /// code that printed it said (``OutputStyle``): what `sessions show`
    /// colours by, never by reading the text; then, in a server session,
    /// where the values minted in it are (``OutputStyle/minted``). Nil
    /// for steps recorded before v11 (and, before v12's build, for a step
    /// that printed no styled part): what they were is not known.
    package var outputStyles: [StyledText.Span]? = nil

    /// The output with its styles, as it was printed (plain where none were recorded).
    package var styledOutput: StyledText {
        StyledText(text: output, spans: outputStyles?.filter { $0.style != .minted } ?? [])
    }

    /// Where in ``output`` the values the client or the server minted are,
    /// as UTF-8 offsets (a server session's; ``MintedValues``).
    package var mintedParts: [Range<Int>] { outputStyles?.filter { $0.style == .minted }.map(\.range) ?? [] }
}

extension StepStatus: Codable {
    /// The status the database names `name`; nil for a name it never keeps.
    package init?(recordedName name: String) {
        guard let status = [Self.ok, .expectFailed, .scriptError, .quit, .interrupted].first(where: { $0.recordedName == name }) else {
            return nil
        }
        self = status
    }

    /// As JSON (`sessions show --json`): its recorded name.
    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let status = Self(recordedName: name) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "no step status \(name)"))
        }
        self = status
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(recordedName)
    }

    /// The name the database keeps.
    package var recordedName: String {
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
