import ChatCore
import ChatSDK
import ChatSimulation

/// One fact of the world during a step, as the one place that saw it
/// happen recorded it: an SDK event of a client, a watcher's emission or
/// end, a message's new state, a line from the provider, the network or a
/// delegate. It becomes text (`source` and `text`) for the step's output
/// and recording and for a watcher's history; nothing parses that text
/// back.
///
/// Indirect: each case's values are boxed, so an event takes a pointer's
/// room in the step's log rather than its largest case's (a `ChatEvent` can
/// hold a whole `Message`): 100,000 emissions in one step took 50 MB of
/// log (issue 31).
package indirect enum WorldEvent: Sendable, Hashable {
    /// An SDK event of the client named so (`client`, `phone`…); message
    /// states come as `messageState`, with the message's handle.
    case client(String, ChatEvent)
    /// A watcher emitted: whether fresh, its refresh state, and what it
    /// holds as the session saw it then.
    case emission(watcher: String, fresh: Bool, refreshing: RefreshingState, summary: String)
    /// A watcher ended by itself.
    case watcherEnded(watcher: String, error: ChatError)
    /// One of the user's messages entered a new state.
    case messageState(message: String, state: SendState)
    /// A request's fate on the simulated network (``Trace/request(name:answer:)``).
    case request(name: String, answer: RequestAnswer)
    /// A line of the other side or the world (`provider`, `delegate`, `network`).
    case trace(source: String, message: String)

    /// The event of what the world traced.
    init(_ trace: Trace) {
        switch trace {
        case .request(let name, let answer): self = .request(name: name, answer: answer)
        case .line(let source, let message): self = .trace(source: source, message: message)
        }
    }

    /// What the recording's `event.source` holds (docs/recording-schema.md):
    /// `client.session`, `client.connection`, `client`, `w1`, `m1:`, `net:`…
    var source: String {
        switch self {
        case .client(let name, .sessionChanged): "\(name).session"
        case .client(let name, .connectionChanged): "\(name).connection"
        case .request: "net:"
        case .client(let name, _): name
        case .emission(let watcher, _, _, _), .watcherEnded(let watcher, _): watcher
        case .messageState(let message, _): "\(message):"
        case .trace(let source, _): "\(source):"
        }
    }

    /// The line the transcript shows, after the time stamp.
    var text: String {
        switch self {
        case .client(let name, let event): Self.describe(event, of: name)
        case .request(let name, let answer): "net: \(name) → \(answer.text)"
        case .emission(let watcher, let fresh, let refreshing, let summary):
            "\(watcher) emits (\(fresh ? "fresh" : "cached"), \(refreshing.name)) \(summary)"
                + (refreshing.error.map { " — \($0.code)" } ?? "")
        case .watcherEnded(let watcher, let error): "\(watcher) ended: \(error.code) — \(error.message)"
        case .messageState(let message, let state):
            "\(message): \(state.name)" + (state.error.map { " (\($0.code) — \($0.message))" } ?? "")
        case .trace(let source, let message): "\(source): \(message)"
        }
    }

    /// Whether it is a line of the network (shown with `net log on`).
    var isNetwork: Bool {
        if case .request = self { true } else { false }
    }

    /// A client's state change as its lane shows it: `session → signedOut`,
    /// `connection → connected`; nil for its other events.
    static func change(_ event: ChatEvent) -> String? {
        switch event {
        case .sessionChanged(let state): "session → \(state)"
        case .connectionChanged(let state): "connection → \(state)"
        default: nil
        }
    }

    private static func describe(_ event: ChatEvent, of name: String) -> String {
        switch event {
        case .sessionChanged, .connectionChanged: "\(name).\(Self.change(event) ?? "")"
        case .warning(let text): "\(name) warning: \(text)"
        case .authenticationFailed(let error): "\(name) authenticationFailed: \(error.code) — \(error.message)"
        case .sessionWasRefreshed: "\(name) sessionWasRefreshed"
        case .sessionWasClosed: "\(name) sessionWasClosed"
        case .sessionDidHaveError(let error): "\(name) sessionDidHaveError: \(error.code) — \(error.message)"
        case .messageStateChanged(let message): "\(name): \(message.id) \(message.state)"
        }
    }
}

extension RefreshingState {
    /// The error of a failed refresh.
    var error: ChatError? {
        if case .failed(let error) = self { error } else { nil }
    }
}

extension SendState {
    /// The reason of a failed message.
    var error: ChatError? {
        if case .failed(let error) = self { error } else { nil }
    }
}
