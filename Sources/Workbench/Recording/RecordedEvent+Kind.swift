import ChatSDK
import ChatSimulation

extension RecordedEvent {
    /// What an event is, as the code that logged it knew it: what the
    /// timeline and the sequence view draw by, never by the event's text
    /// (issue 30). Kept with the event (`event.kind`, JSON, v9); rows
    /// written before are typed by the one LEGACY reader
    /// (RecordedEvent+LegacyText.swift).
    package enum Kind: Sendable, Hashable, Codable {
        /// A client's session or connection changed: drawn on the
        /// client's lane as `change` (`session → signedOut`).
        case state(client: String, change: String)
        /// A request's fate on the simulated network (`net: sendMessage → ok`):
        /// an arrow to the server labelled `name`, and its answer, typed
        /// from the fault layer that saw it (answered or not, by its value).
        case request(name: String, answer: RequestAnswer)
        /// A watcher's emission, fresh or from the cache.
        case emission(watcher: String, fresh: Bool)
        /// A watcher that ended by itself.
        case watcherEnded(watcher: String)
        /// One of the user's messages entered a new state.
        case message(handle: String)
        /// A line of the token provider (the other side).
        case provider
        /// How one of an app's calls ended, returned or threw (a field
        /// recording's `call: sendMessage returned m-1 toBeSent`).
        case call
        /// Anything else: a client's other events, the delegate's and the
        /// network's lines, an app's calls.
        case other

        /// Whether it is a watcher's (an emission or its end).
        package var isWatcher: Bool {
            switch self {
            case .emission, .watcherEnded: true
            default: false
            }
        }

        /// Its strings passed through `redact`, as the event's text is
        /// (W6: nothing secret leaves in clear, in the kind either).
        package func redacted(_ redact: (String) -> String) -> Self {
            switch self {
            case .state(let client, let change): .state(client: redact(client), change: redact(change))
            case .request(let name, let answer): .request(name: redact(name), answer: answer.redacted(redact))
            case .emission(let watcher, let fresh): .emission(watcher: redact(watcher), fresh: fresh)
            case .watcherEnded(let watcher): .watcherEnded(watcher: redact(watcher))
            case .message(let handle): .message(handle: redact(handle))
            case .provider, .call, .other: self
            }
        }
    }
}
