import ChatSDK
import ChatSimulation

/// A client of the session (`client`, or a name from `client new`).
// @unchecked Sendable: mutable, and touched only by whoever holds the stage
// (`Stage.exclusively`): the thread running a command, which also runs the
// world's jobs, or in server mode between commands the background pump,
// under the same lock. Never by two threads at once.
final class ClientObject: Inspectable, @unchecked Sendable {
    let name: String
    /// Its device's id, which its SDK client is configured with and its
    /// own network link is named by (`net offline --client NAME`).
    var deviceId: String { Self.deviceId(of: name) }
    static func deviceId(of name: String) -> String { "device-\(name)" }
    var client: ChatClient
    let provider: SimulatedTokenProvider
    let cacheMode: ChatClient.CacheMode
    let apiKey: String
    /// `ChatClient.Configuration.autoResend` (`client new --no-auto-resend`, D7).
    let autoResend: Bool
    let delegate: WorkbenchDelegate
    var userId: String?
    var auth: AuthenticationMethod?
    var session: SessionState = .signedOut
    var connection: ConnectionState = .disconnected
    /// The session and connection changes seen, against the allowed ones
    /// (`chatbench explore`'s invariant 4).
    var audit = StateAudit()
    /// Users this client held before its current one (signed out, cleared,
    /// or replaced), oldest first.
    var pastUsers: [String] = []
    /// Messages it had not sent when it restarted with nothing to keep its
    /// outbox in (a memory cache, or a disk cache made garbage): they went
    /// with the process, and no later client can send them or fail them.
    var lostWithARestart: Set<String> = []
    /// The app shut it down (`app shutdown`) and has not restarted it: what
    /// it has not sent waits for the next launch.
    var isShutDown = false
    /// Where the SDK client's events arrive, the moment they happen.
    let relay: EventRelay

    init(
        name: String, client: ChatClient, provider: SimulatedTokenProvider, cacheMode: ChatClient.CacheMode, apiKey: String,
        autoResend: Bool = true, delegate: WorkbenchDelegate, relay: EventRelay
    ) {
        self.autoResend = autoResend
        self.delegate = delegate
        self.relay = relay
        self.name = name
        self.client = client
        self.provider = provider
        self.cacheMode = cacheMode
        self.apiKey = apiKey
    }

    var handle: String { name }

    let fieldNames = ["user", "auth", "session", "connection", "connectionReason", "cache"]

    func field(_ name: String, argument: String?, in scope: any InspectionScope) throws(ScriptError) -> Resolved? {
        switch name {
        case "user": .value(userId.map(Value.string) ?? .none)
        case "auth": .value(auth.map { .string($0.rawValue) } ?? .none)
        case "session": .value(.string(session.name))
        case "connection": .value(.string(connection.name))
        case "connectionReason":
            if case .waitingForNetwork(let reason) = connection { .value(.string(reason.description)) } else { .value(.none) }
        // The cache the SDK keeps now: `memory` once a disk cache could not be used (C1).
        case "cache": .value(.string(client.cacheMode.rawValue))
        default: nil
        }
    }

    func summary(in scope: any InspectionScope) -> String {
        "\(name): user \(userId ?? "none"), session \(session), connection \(connection), cache \(client.cacheMode.rawValue)"
    }
}
