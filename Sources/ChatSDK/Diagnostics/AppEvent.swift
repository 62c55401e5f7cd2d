/// What the client told the app that a replay or an export reads, as the
/// flight recorder keeps it (issue 30): a value in the event's `value`
/// column (JSON), with ``text`` its one rendering in `text`. Other events
/// (the session's and the connection's states, warnings, watchers'
/// emissions) are text only.
package enum AppEvent: RecordedValue, Sendable, Hashable {
    /// `call: sendMessage returned m-1 toBeSent`.
    case returned(call: String, value: Returned)
    /// `call: setCurrentUser threw currentUserAlreadySet: …`: `code` nil
    /// for an error that is no `ChatError`.
    case threw(call: String, code: String?, message: String)
    /// `m-1: sent "hi"`: a message's state, and its content as recorded.
    case message(id: String, state: String, content: AppCall.Content)

    /// What a call returned, as recorded.
    package enum Returned: Codable, Sendable, Hashable {
        case nothing
        case message(id: String, state: String)
        case conversation(id: String)
        case user(id: String)
        case warnings([String])
    }

    /// The event's first word (`call`, `m-1:`).
    package var source: String {
        switch self {
        case .returned, .threw: "call"
        case .message(let id, _, _): "\(id):"
        }
    }

    /// The event's line, for people (`event.text`).
    package var text: String {
        switch self {
        case .returned(let call, let value): "call: \(call) returned\(value.text)"
        case .threw(let call, let code, let message): "call: \(call) threw \(code.map { "\($0): \(message)" } ?? message)"
        case .message(let id, let state, let content): "\(id): \(state) \(content.eventText)"
        }
    }
}

extension AppEvent.Returned {
    /// ` m-1 toBeSent`, ` c-1`, ` warnings: a; b`, or nothing.
    var text: String {
        switch self {
        case .nothing: ""
        case .message(let id, let state): " \(id) \(state)"
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
