import ChatSDK
import ChatSimulation

/// A client of the session (`client`, or a name from `client new`).
// Mutated only on the thread that runs the interpreter and pumps the world.
final class ClientObject: Inspectable, @unchecked Sendable {
    let name: String
    var client: ChatClient
    let provider: SimulatedTokenProvider
    let cacheMode: ChatClient.CacheMode
    let apiKey: String
    let delegate: WorkbenchDelegate
    var userId: String?
    var auth: AuthenticationMethod?
    var session: SessionState = .signedOut
    var connection: ConnectionState = .disconnected
    /// Internal watchers that follow messages, by conversation id.
    var trackers: [String: WatchObservation] = [:]
    /// Where the SDK client's events arrive, the moment they happen.
    let relay: EventRelay

    init(name: String, client: ChatClient, provider: SimulatedTokenProvider, cacheMode: ChatClient.CacheMode, apiKey: String,
         delegate: WorkbenchDelegate, relay: EventRelay) {
        self.delegate = delegate
        self.relay = relay
        self.name = name
        self.client = client
        self.provider = provider
        self.cacheMode = cacheMode
        self.apiKey = apiKey
    }

    var handle: String { name }

    /// Stops following message states (the user changed or the app restarts).
    func stopTracking() {
        for tracker in trackers.values { tracker.cancel() }
        trackers = [:]
    }

    let fieldNames = ["user", "auth", "session", "connection", "connectionReason", "cache"]

    func field(_ name: String, argument: String?, in interpreter: Interpreter) throws(ScriptError) -> Resolved? {
        switch name {
        case "user": .value(userId.map(Value.string) ?? .none)
        case "auth": .value(auth.map { .string($0.rawValue) } ?? .none)
        case "session": .value(.string(session.name))
        case "connection": .value(.string(connection.name))
        case "connectionReason":
            if case .waitingForNetwork(let reason) = connection { .value(.string(reason.description)) } else { .value(.none) }
        case "cache": .value(.string(cacheMode.rawValue))
        default: nil
        }
    }

    func summary(in interpreter: Interpreter) -> String {
        "\(name): user \(userId ?? "none"), session \(session), connection \(connection), cache \(cacheMode.rawValue)"
    }
}
