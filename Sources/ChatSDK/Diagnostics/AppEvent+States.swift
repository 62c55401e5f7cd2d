/// The client's states and a watcher's emission as an ``AppEvent`` keeps
/// them: values of their own (the SDK's public enums are not `Codable`),
/// made from the SDK's, whose ``text`` is what the SDK's own rendering
/// (`description`) gives, so that the recorded line stays what it was.
extension AppEvent {
    /// ``SessionState``, as recorded (`via` is `AuthenticationMethod`'s raw value).
    package enum Session: Codable, Sendable, Hashable {
        case signedOut
        case userSet(userId: String)
        case authenticating(userId: String)
        case authenticated(userId: String, via: String)
        case refreshing(userId: String)
        case needsCredentials(userId: String, reason: String)
        case closed(reason: String)
    }

    /// ``ConnectionState``, as recorded.
    package enum Connection: Codable, Sendable, Hashable {
        case disconnected
        case connecting
        case connected
        case waitingForNetwork(reason: DownReason)

        /// ``ConnectionState/DownReason``.
        package enum DownReason: Codable, Sendable, Hashable {
            case offline
            case backoff(attempt: Int)
            case closedByServer(reason: String)
        }
    }

    /// What the client said of the app's credentials (the `ChatEvent`s
    /// `authenticationFailed`, `sessionWasRefreshed`, `sessionWasClosed`,
    /// `sessionDidHaveError`), errors by their codes.
    package enum Authentication: Codable, Sendable, Hashable {
        case failed(code: String)
        case sessionRefreshed
        case sessionClosed
        case sessionError(code: String)
    }

    /// What a watcher's emission showed, in summary: how many elements,
    /// whether there are more, and for items the first three messages'
    /// states.
    package enum Shown: Codable, Sendable, Hashable {
        case conversations(count: Int, hasMore: Bool)
        case conversation(id: String)
        case items(count: Int, hasMore: Bool, first: [Item])

        /// A message of an items watcher's emission, its state and a
        /// failed one's error code.
        package struct Item: Codable, Sendable, Hashable {
            package var id: String
            package var state: SendState.Kind
            package var error: String?

            package init(id: String, state: SendState.Kind, error: String? = nil) {
                self.id = id
                self.state = state
                self.error = error
            }
        }
    }

    /// ``RefreshingState`` without a failure's error.
    package enum Refreshing: String, Codable, Sendable, Hashable {
        case refreshing, refreshed, failed
    }
}

extension AppEvent.Session {
    init(_ state: SessionState) {
        switch state {
        case .signedOut: self = .signedOut
        case .userSet(let user): self = .userSet(userId: user)
        case .authenticating(let user): self = .authenticating(userId: user)
        case .authenticated(let user, let via): self = .authenticated(userId: user, via: via.rawValue)
        case .refreshing(let user): self = .refreshing(userId: user)
        case .needsCredentials(let user, let reason): self = .needsCredentials(userId: user, reason: reason)
        case .closed(let reason): self = .closed(reason: reason)
        }
    }

    /// As ``SessionState``'s `description`: `authenticated(alice, via: tokens)`.
    package var text: String {
        switch self {
        case .signedOut: "signedOut"
        case .userSet(let user): "userSet(\(user))"
        case .authenticating(let user): "authenticating(\(user))"
        case .authenticated(let user, let via): "authenticated(\(user), via: \(via))"
        case .refreshing(let user): "refreshing(\(user))"
        case .needsCredentials(let user, let reason): "needsCredentials(\(user), \(reason))"
        case .closed(let reason): "closed(\(reason))"
        }
    }
}

extension AppEvent.Connection {
    init(_ state: ConnectionState) {
        switch state {
        case .disconnected: self = .disconnected
        case .connecting: self = .connecting
        case .connected: self = .connected
        case .waitingForNetwork(.offline): self = .waitingForNetwork(reason: .offline)
        case .waitingForNetwork(.backoff(let attempt)): self = .waitingForNetwork(reason: .backoff(attempt: attempt))
        case .waitingForNetwork(.closedByServer(let reason)): self = .waitingForNetwork(reason: .closedByServer(reason: reason))
        }
    }

    /// As ``ConnectionState``'s `description`: `waitingForNetwork(offline)`.
    package var text: String {
        switch self {
        case .disconnected: "disconnected"
        case .connecting: "connecting"
        case .connected: "connected"
        case .waitingForNetwork(.offline): "waitingForNetwork(offline)"
        case .waitingForNetwork(.backoff(let attempt)): "waitingForNetwork(backoff(attempt \(attempt)))"
        case .waitingForNetwork(.closedByServer(let reason)): "waitingForNetwork(closedByServer(\(reason)))"
        }
    }
}

extension AppEvent.Authentication {
    /// `failed invalidToken`, `session refreshed`…
    var text: String {
        switch self {
        case .failed(let code): "failed \(code)"
        case .sessionRefreshed: "session refreshed"
        case .sessionClosed: "session closed"
        case .sessionError(let code): "session error \(code)"
        }
    }
}

extension AppEvent.Shown {
    /// How many are shown, and which, in the emission's line.
    static let itemsShown = 3

    /// `3 items (m-1 sent, m-2 sending, m-3 toBeSent, …)`, `2 conversations and more`, `conversation c-1`.
    package var text: String {
        switch self {
        case .conversations(let count, let hasMore): "\(Self.count(count, "conversation"))\(hasMore ? " and more" : "")"
        case .conversation(let id): "conversation \(id)"
        case .items(let count, let hasMore, let first):
            "\(Self.count(count, "item"))\(hasMore ? " and more" : "")"
                + (first.isEmpty
                    ? ""
                    : " (" + first.map { "\($0.id) \(AppEvent.state($0.state, $0.error))" }.joined(separator: ", ")
                        + (count > first.count ? ", …" : "") + ")")
        }
    }

    private static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}

extension AppEvent.Refreshing {
    init(_ state: RefreshingState) {
        switch state {
        case .refreshing: self = .refreshing
        case .refreshed: self = .refreshed
        case .failed: self = .failed
        }
    }
}
