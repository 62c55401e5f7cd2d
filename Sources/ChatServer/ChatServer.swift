import ChatBackend
import ChatCore
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import ServiceLifecycle
import Synchronization

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// ChatBackend served over HTTP + WebSocket (SPEC S3).
///
/// The JSON API maps the SDK's wire requests onto REST-ish routes (see
/// `docs/openapi.json` and ``HTTPWire``); `GET /v1/events` upgrades to a
/// WebSocket that streams ``WireEvent`` JSON frames. Data persists to a
/// SQLite file.
///
/// ```swift
/// let server = try ChatServer(configuration: .init(port: 0, databasePath: "/tmp/chat.sqlite"))
/// let running = try await server.start()          // in-process (tests)
/// print(running.port)
/// await running.stop()
/// // or, in a command line tool:
/// try await server.run(handleSignals: true) { port in print("listening on \(port)") }
/// ```
public final class ChatServer: Sendable {
    /// How a server is set up.
    public struct Configuration: Sendable {
        /// Address to listen on. Default 127.0.0.1.
        public var host: String = "127.0.0.1"
        /// TCP port; 0 picks a free one. Default 8080.
        public var port: Int = 8080
        /// SQLite file to persist to; nil keeps everything in memory.
        public var databasePath: String?
        /// Seed of the identifiers and tokens the server makes (reproducible
        /// runs); nil uses the system's random generator.
        public var seed: UInt64?
        /// How each commit is synced to the file. Default `.normal`: in WAL
        /// mode a commit survives a crash of the process (`kill -9` loses no
        /// acknowledged message; scripts/kill-restart.sh checks it) and only a
        /// power loss may lose the last ones; `.full` syncs at every commit
        /// (about 1.6 ms each, which capped the server near 266 msg/s).
        public var commitSync: CommitSync = .normal
        /// Creates the demo app (`demo-key`) when the database does not have it. Default true.
        public var createDemoApp = true
        /// A connection that sends nothing for this long, with no request
        /// of its own being answered, is closed (from its first byte on).
        /// Event streams are pinged more often than that. Default 60 s.
        public var idleTimeout: Duration = .seconds(60)
        /// A request's head and body must be read in full within this long
        /// of its first byte, however slowly they come; else the connection
        /// is closed. Default 10 s.
        public var requestTimeout: Duration = .seconds(10)
        /// Open connections the server holds (HTTP and event streams); nil
        /// derives it from the process's open-file limit (RLIMIT_NOFILE),
        /// leaving an eighth of it (at least 64) for the database and the
        /// rest, which is also the most it can be set to. Past it, the connection idle (or reading one request) the
        /// longest is closed to make room; when every connection is busy, a
        /// new one is closed at once.
        public var maxConnections: Int?
        /// Open connections from one client address; nil: half of
        /// ``maxConnections``. Past it, that address's own longest idle
        /// connection is closed to make room.
        public var maxConnectionsPerAddress: Int?
        /// How much each event stream may have waiting to be written
        /// (default 256 frames, 1 MiB): a client that reads nothing while
        /// more arrives is closed (1013, "slow consumer"); a catch-up is read
        /// from the database as the client takes it.
        var streamQueue = EventStreamBudget.Limits()
        /// Open event streams of one user; a new one past it closes that
        /// user's oldest (with the reason). Default 8.
        public var maxStreamsPerUser = 8
        /// At a graceful shutdown, idle connections close at once; requests
        /// in flight get this long to be answered, then every connection
        /// still open is closed. Default 5 s.
        public var shutdownGrace: Duration = .seconds(5)
        /// Where every answer (HTTP responses, event-stream frames) is
        /// written, for checking them against the document; nil: nowhere.
        public var exchangeLog: ExchangeLog?
        /// The logger requests are logged to.
        public var logger = Logger(label: "chatbench.server")

        public init(host: String = "127.0.0.1", port: Int = 8080, databasePath: String? = nil, seed: UInt64? = nil) {
            self.host = host
            self.port = port
            self.databasePath = databasePath
            self.seed = seed
        }
    }

    /// The demo app's API key (the same as the embedded world's).
    public static let demoApiKey = "demo-key"
    /// The demo app's secret (the same as the embedded world's).
    public static let demoSecret = "demo-secret-0123456789abcdef"
    /// Largest request head (request line and header fields) the server
    /// reads; more is answered 431 `headersTooLarge`.
    public static let maxHeaderBytes = 32 * 1024

    public let configuration: Configuration
    /// The backend behind the routes.
    public let backend: Backend
    let hub: RealtimeHub
    let connections: ConnectionRegistry
    /// The database file's lock, held while the server runs (nil in memory).
    let lock: ServerLock?

    /// Why a server would not open its database file: the file is in use by
    /// another server, is another program's, or is damaged. Nothing was
    /// written to it. The description is one line naming the file.
    public struct Refusal: Error, CustomStringConvertible {
        public let description: String
    }

    /// Opens the database (running its migrations) and creates the demo app if needed.
    ///
    /// A file is checked, read-only, and locked (one server per file): it
    /// must be new, empty or a chatbench database whose pages read back;
    /// else ``Refusal`` is thrown before anything is written to it.
    public init(configuration: Configuration) throws {
        self.configuration = configuration
        connections = ConnectionRegistry(limits: Self.connectionLimits(configuration))
        hub = RealtimeHub(maxStreamsPerUser: configuration.maxStreamsPerUser)
        if let path = configuration.databasePath {
            // Told apart from another program's file first, read-only, so
            // that nothing is written beside it (not even the lock file);
            // once locked, checked whole (its pages too), in case another
            // server was making it meanwhile.
            do {
                try DatabaseFileCheck.check(path, integrity: false)
                lock = try ServerLock(databasePath: path)
                try DatabaseFileCheck.check(path)
            } catch let refusal as DatabaseFileCheck.Refusal {
                throw Refusal(description: refusal.description)
            } catch let refusal as ServerLock.Refusal {
                throw Refusal(description: refusal.description)
            }
        } else {
            lock = nil
        }
        backend = try Backend(
            environment: ServerEnvironment.make(seed: configuration.seed), path: configuration.databasePath,
            commitSync: configuration.commitSync)
        if configuration.createDemoApp, (try? backend.settings(apiKey: Self.demoApiKey)) == nil {
            try backend.createApp(apiKey: Self.demoApiKey, jwtSecret: Self.demoSecret)
        }
    }

    /// Runs the server until the task is cancelled or, with `handleSignals`,
    /// until SIGINT or SIGTERM, which shut it down gracefully: it stops
    /// accepting connections, closes the event streams and finishes the
    /// requests in flight. `onReady` gets the port once it accepts connections.
    public func run(handleSignals: Bool, onReady: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let group = makeServiceGroup(handleSignals: handleSignals, onReady: onReady)
        defer { lock?.release() }
        try await group.run()
    }

    /// Starts the server in a task of its own and returns once it accepts connections.
    public func start() async throws -> Running {
        let (ready, readyContinuation) = AsyncStream<Int>.makeStream()
        let group = makeServiceGroup(handleSignals: false) { port in
            readyContinuation.yield(port)
            readyContinuation.finish()
        }
        let failure = Mutex<(any Error)?>(nil)
        let lock = self.lock
        let task = Task {
            do {
                try await group.run()
            } catch {
                failure.withLock { $0 = error }
            }
            lock?.release()
            readyContinuation.finish()
        }
        for await port in ready {
            return Running(port: port, task: task, group: group, hub: hub)
        }
        throw failure.withLock { $0 } ?? CancellationError()
    }

    /// A server started with ``start()``.
    public struct Running: Sendable {
        /// The port it listens on.
        public let port: Int
        let task: Task<Void, Never>
        let group: ServiceGroup
        let hub: RealtimeHub

        /// `http://127.0.0.1:PORT`.
        public var baseURL: String { "http://127.0.0.1:\(port)" }

        /// Stops the server gracefully, as SIGTERM does; returns when it is stopped.
        public func stop() async {
            await group.triggerGracefulShutdown()
            await task.value
        }
    }

    /// Closes the realtime connections of an app (or of one of its users),
    /// as a server restart or a network cut would; returns how many closed.
    @discardableResult
    public func dropRealtimeConnections(apiKey: String? = nil, userId: String? = nil) -> Int {
        hub.dropAll(apiKey: apiKey, userId: userId, reason: "dropped by the server")
    }

    /// The number of open event streams.
    public var realtimeConnectionCount: Int { hub.count }

    /// The number of open TCP connections.
    public var connectionCount: Int { connections.count }

    /// The connection caps in force: the configured ones, or those derived
    /// from the open-file limit.
    public var connectionLimits: (total: Int, perAddress: Int) {
        let limits = connections.limits
        return (limits.maxConnections, limits.maxPerAddress)
    }

    static func connectionLimits(_ configuration: Configuration) -> ConnectionTable<ObjectIdentifier>.Limits {
        let derived = ConnectionTable<ObjectIdentifier>.Limits.derived(openFileLimit: openFileLimit())
        var limits = derived
        // Never more than the descriptors allow: when they run out, the
        // process dies (SIGILL in libdispatch, seen with a cap of 1,000
        // under ulimit -n 256), whatever NIO does with a failed accept.
        if let total = configuration.maxConnections {
            let capped = min(max(1, total), derived.maxConnections)
            limits = .init(maxConnections: capped, maxPerAddress: max(1, capped / 2))
        }
        if let perAddress = configuration.maxConnectionsPerAddress {
            limits.maxPerAddress = min(max(1, perAddress), limits.maxConnections)
        }
        return limits
    }

    /// The process's soft limit on open descriptors.
    static func openFileLimit() -> Int {
        var limit = rlimit()
        #if os(Linux)
            let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
            let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0 else { return 1024 }
        // Unlimited (RLIM_INFINITY is all ones) counts as a million.
        return Int(clamping: min(limit.rlim_cur, 1 << 20))
    }

    // MARK: Assembly

    func makeServiceGroup(handleSignals: Bool, onReady: @escaping @Sendable (Int) async -> Void) -> ServiceGroup {
        var configuration = ServiceGroupConfiguration(
            services: [
                .init(service: makeApplication(onReady: onReady)),
                .init(service: RealtimeShutdown(hub: hub, connections: connections, grace: self.configuration.shutdownGrace)),
            ],
            gracefulShutdownSignals: handleSignals ? [.sigterm, .sigint] : [], logger: self.configuration.logger)
        // The connections' guards close what is left after the grace period;
        // this is the last resort.
        configuration.maximumGracefulShutdownDuration = self.configuration.shutdownGrace + .seconds(5)
        return ServiceGroup(configuration: configuration)
    }

    func makeApplication(onReady: @escaping @Sendable (Int) async -> Void) -> some ApplicationProtocol {
        let logger = configuration.logger
        let webSocketResponder = makeWebSocketRouter().buildResponder()
        let connections = self.connections
        let idleTimeout = configuration.idleTimeout
        let requestTimeout = configuration.requestTimeout
        // Event streams are pinged well within the idle timeout.
        let ping = min(.seconds(30), idleTimeout / 2)
        let channelConfiguration = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: .init(httpDecoderConfiguration: .init(maxHeaderFieldSize: Self.maxHeaderBytes, maxHeaderListSize: Self.maxHeaderBytes)),
            // A client that reads nothing gets 30 s to take a close frame
            // queued behind its unread frames (see `queueCloseFrame(_:on:)`).
            ws: .init(maxFrameSize: 1 << 20, autoPing: .enabled(timePeriod: ping), closeTimeout: .seconds(30)))
        let server = HTTPServerBuilder { responder in
            GuardedHTTPChannel(
                base: HTTP1WebSocketUpgradeChannel(
                    responder: responder, webSocketResponder: webSocketResponder,
                    configuration: channelConfiguration),
                registry: connections, idleTimeout: idleTimeout, requestTimeout: requestTimeout)
        }
        return Application(
            router: makeRouter(),
            server: server,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "chatbench"),
            onServerRunning: { channel in
                await onReady(channel.localAddress?.port ?? 0)
            },
            logger: logger)
    }
}
