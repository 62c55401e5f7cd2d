/// What the client told the app, as the flight recorder keeps it (issue
/// 30): a value in the event's `value` column (JSON), with ``text`` its one
/// rendering in `text` and ``source`` its `source`. Every event the
/// recorder writes is one of these, from where the client made it to
/// whoever reads the file (the workbench's replay and export).
package enum AppEvent: RecordedValue, Sendable, Hashable {
    /// `call: sendMessage returned m-1 toBeSent`.
    case returned(call: String, value: Returned)
    /// `call: setCurrentUser threw currentUserAlreadySet: …`: `code` nil
    /// for an error that is no `ChatError`.
    case threw(call: String, code: String?, message: String)
    /// `m-1: sent "hi"`, `m-1: failed(offline) "hi"`: a message's state
    /// (recorded by its name), a failed one's error code, and its content
    /// as recorded.
    case message(id: String, state: SendState.Kind, error: String? = nil, content: AppCall.Content)
    /// `client.session authenticated(alice, via: tokens)`.
    case session(state: Session)
    /// `client.connection waitingForNetwork(offline)`.
    case connection(state: Connection)
    /// `warning: …`.
    case warning(text: String)
    /// `client.auth failed invalidToken`, `client.auth session refreshed`…
    case authentication(event: Authentication)
    /// `w1: 3 items (m-1 sent, …), fresh, refreshed`: a watcher's emission
    /// in summary. `watcher` is the client's id of it (from 0), named as
    /// ``FlightRecorder/watcherName(_:)`` names it.
    case emission(watcher: Int, shown: Shown, fresh: Bool, refreshing: Refreshing)
    /// `w1 ended: clientClosed`: a watcher that ended with an error (`watcher`
    /// nil when the client had not numbered it yet).
    case watcherEnded(watcher: Int?, reason: String)

    /// What a call returned, as recorded.
    package enum Returned: Codable, Sendable, Hashable {
        case nothing
        case message(id: String, state: SendState.Kind, error: String? = nil)
        case conversation(id: String)
        case user(id: String)
        case warnings([String])

        enum WarningsCodingKeys: String, CodingKey { case _0 = "warnings" }
    }

    /// Whose an event is: what a replay compares event by event.
    package enum Subject: Sendable, Hashable {
        /// An app's call, as it ended.
        case call
        case message(id: String)
        case session
        case connection
        case warning
        case authentication
        /// A watcher, by its number (nil: one that ended before it had one).
        case watcher(Int?)

        /// Its name, the event's first word (`call`, `m-1:`, `client.session`, `w1`).
        package var source: String {
            switch self {
            case .call: "call"
            case .message(let id): "\(id):"
            case .session: "client.session"
            case .connection: "client.connection"
            case .warning: "warning"
            case .authentication: "client.auth"
            case .watcher(let watcher): watcher.map(FlightRecorder.watcherName) ?? "watcher"
            }
        }
    }

    /// Whose the event is.
    package var subject: Subject {
        switch self {
        case .returned, .threw: .call
        case .message(let id, _, _, _): .message(id: id)
        case .session: .session
        case .connection: .connection
        case .warning: .warning
        case .authentication: .authentication
        case .emission(let watcher, _, _, _): .watcher(watcher)
        case .watcherEnded(let watcher, _): .watcher(watcher)
        }
    }

    /// The event's first word (`call`, `m-1:`, `client.session`, `w1`): its subject's name.
    package var source: String { subject.source }

    /// The event's line, for people (`event.text`).
    package var text: String {
        switch self {
        case .returned(let call, let value): "call: \(call) returned\(value.text)"
        case .threw(let call, let code, let message): "call: \(call) threw \(code.map { "\($0): \(message)" } ?? message)"
        case .message(let id, let state, let error, let content): "\(id): \(AppEvent.state(state, error)) \(content.eventText)"
        case .session(let state): "client.session \(state.text)"
        case .connection(let state): "client.connection \(state.text)"
        case .warning(let text): "warning: \(text)"
        case .authentication(let event): "client.auth \(event.text)"
        case .emission(_, let shown, let fresh, let refreshing):
            "\(source): \(shown.text), \(fresh ? "fresh" : "cached"), \(refreshing.rawValue)"
        case .watcherEnded(_, let reason): "\(source) ended: \(reason)"
        }
    }
}

extension AppEvent {
    /// A message's state as `SendState` renders it: `sent`, `failed(offline)`.
    static func state(_ kind: SendState.Kind, _ error: String?) -> String {
        error.map { "\(kind.rawValue)(\($0))" } ?? kind.rawValue
    }
}

extension SendState.Kind {
    /// LEGACY, for a state recorded as text (an event's text, and the
    /// first v7 builds' values): what ``AppEvent/state(_:_:)`` wrote read
    /// back, `sent` as `.sent` and `failed(offline)` as `.failed` with the
    /// error code `offline`. Nil for a text that is no state.
    package static func legacy(_ text: String) -> (kind: Self, error: String?)? {
        if let kind = Self(rawValue: text) { return (kind, nil) }
        guard let m = text.wholeMatch(of: /failed\((\w+)\)/) else { return nil }
        return (.failed, String(m.1))
    }
}

extension AppEvent.Returned {
    /// ` m-1 toBeSent`, ` c-1`, ` warnings: a; b`, or nothing.
    var text: String {
        switch self {
        case .nothing: ""
        case .message(let id, let state, let error): " \(id) \(AppEvent.state(state, error))"
        case .conversation(let id), .user(let id): " \(id)"
        case .warnings(let warnings): warnings.isEmpty ? "" : " warnings: \(warnings.joined(separator: "; "))"
        }
    }
}

extension AppCall.Content {
    /// How a message's event shows it: `"hi"`, `[image image/png 2048 bytes]`.
    var eventText: String {
        switch self {
        case .text(let text): AppCall.quoted(text)
        case .attachment(let kind, let mime, let bytes): "[\(kind) \(mime) \(bytes) bytes]"
        }
    }
}
