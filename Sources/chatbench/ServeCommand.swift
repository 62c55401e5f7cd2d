import ArgumentParser
import ChatBackend
import ChatServer
import Dispatch
import Foundation
import Logging
import Synchronization

/// `chatbench serve` (SPEC S3): the backend as an HTTP + WebSocket server.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the backend as an HTTP + WebSocket server.",
        discussion: """
            Serves the JSON API documented in docs/openapi.json and the event stream \
            (WebSocket, GET /v1/events), persisting to a SQLite file. Prints one line \
            `chatbench serve: listening on http://HOST:PORT (db FILE)` when it accepts \
            connections; SIGINT or SIGTERM stop it gracefully (idle connections close at \
            once, requests in flight get --shutdown-grace); a second one ends it at once. Hostile \
            connections are bounded: a request must be read in full within --request-timeout, the \
            server holds at most --max-connections (closing the longest idle one to make room), a \
            user at most --max-streams-per-user event streams, and a stream whose client does not \
            read is closed (1013, slow consumer). The \
            demo app (API key demo-key, app secret demo-secret-0123456789abcdef) is created when \
            the database does not have it, unless --no-demo-app; `chatbench apps add` makes apps \
            with secrets of their own. An app that lets anyone sign in as any \
            user by id alone (its allowUserIdOnly setting, on by default) is named in a warning at \
            start. One server per database file: a file in use by another server, another \
            program's SQLite file or a damaged one is refused before anything is written to it. \
            Requests are logged to standard error, without credentials or bodies.
            """
    )

    @Option(help: "The address to listen on.")
    var host: String = "127.0.0.1"

    @Option(help: "The TCP port to listen on (0 picks a free one).")
    var port: Int = 8080

    @Option(
        help: ArgumentHelp("The server's SQLite database (:memory: for a private one, deleted when the server stops).", valueName: "path"),
        completion: .file())
    var db: String = "chatbench-server.sqlite"

    @Option(
        help: ArgumentHelp(
            """
            How each commit is synced to disk: normal (a commit survives a crash or kill of the \
            server, the last ones may be lost on power loss) or full (a sync per commit, survives \
            power loss, about 1.6 ms each).
            """, valueName: "mode"))
    var sync: String = CommitSync.normal.rawValue

    @Option(help: "Seed of the identifiers and tokens the server makes (reproducible runs; tokens become guessable).")
    var seed: UInt64?

    @Option(
        help: ArgumentHelp(
            """
            Close a connection that sends nothing for this many seconds while none of its requests \
            is being answered (event streams are pinged more often).
            """, valueName: "seconds"))
    var idleTimeout: Double = 60

    @Option(
        help: ArgumentHelp(
            """
            Close a connection whose request (head and body) is not read in full this many seconds \
            after its first byte, however slowly the bytes come.
            """, valueName: "seconds"))
    var requestTimeout: Double = 10

    @Option(
        help: ArgumentHelp(
            """
            Open connections the server holds, event streams included (default: the open-file \
            limit, ulimit -n, less an eighth of it and at least 64 for the database and the rest, \
            which is also the most it can be). \
            Past it the connection idle, or reading one request, the longest is closed to make room; \
            when all are busy a new one is closed at once.
            """, valueName: "count"))
    var maxConnections: Int?

    @Option(
        help: ArgumentHelp(
            "Open connections from one client address (default: half of --max-connections); past it that address's longest idle one closes.",
            valueName: "count"))
    var maxConnectionsPerAddress: Int?

    @Option(
        help: ArgumentHelp("Open event streams of one user; one more closes that user's oldest, with the reason.", valueName: "count"))
    var maxStreamsPerUser: Int = 8

    @Option(
        help: ArgumentHelp(
            """
            On SIGINT or SIGTERM, idle connections close at once; requests in flight get this many \
            seconds to be answered, then every connection still open is closed and the server exits.
            """, valueName: "seconds"))
    var shutdownGrace: Double = 5

    @Option(help: ArgumentHelp("Log level: trace, debug, info, notice, warning, error, critical.", valueName: "level"))
    var logLevel: String = "info"

    @Flag(help: "Do not create the well-known demo app (demo-key and its published secret) in a database that does not have it.")
    var noDemoApp = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535, got \(port)") }
        guard CommitSync(rawValue: sync) != nil else {
            throw ValidationError("--sync must be normal or full; got \(sync)")
        }
        guard idleTimeout > 0, idleTimeout <= 86_400 else {
            throw ValidationError("--idle-timeout must be more than 0 and at most 86400 seconds, got \(idleTimeout)")
        }
        guard requestTimeout > 0, requestTimeout <= 3_600 else {
            throw ValidationError("--request-timeout must be more than 0 and at most 3600 seconds, got \(requestTimeout)")
        }
        if let maxConnections, maxConnections < 1 {
            throw ValidationError("--max-connections must be at least 1, got \(maxConnections)")
        }
        if let maxConnectionsPerAddress, maxConnectionsPerAddress < 1 {
            throw ValidationError("--max-connections-per-address must be at least 1, got \(maxConnectionsPerAddress)")
        }
        guard maxStreamsPerUser >= 1 else {
            throw ValidationError("--max-streams-per-user must be at least 1, got \(maxStreamsPerUser)")
        }
        guard shutdownGrace >= 0, shutdownGrace <= 3_600 else {
            throw ValidationError("--shutdown-grace must be between 0 and 3600 seconds, got \(shutdownGrace)")
        }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical; got \(logLevel)")
        }
    }

    func run() throws {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        var configuration = ChatServer.Configuration(host: host, port: port, databasePath: db == ":memory:" ? nil : db, seed: seed)
        configuration.logger = Logger(label: "chatbench.server")
        configuration.commitSync = CommitSync(rawValue: sync) ?? .normal
        configuration.idleTimeout = .milliseconds(Int64(idleTimeout * 1000))
        configuration.shutdownGrace = .milliseconds(Int64(shutdownGrace * 1000))
        configuration.createDemoApp = !noDemoApp
        // As for `test --server fresh`: every answer to FILE, for
        // scripts/openapi_check.py (scripts/schemathesis_check.sh checks its runs' answers so).
        if let path = ProcessInfo.processInfo.environment["CHATBENCH_EXCHANGE_LOG"] {
            do {
                configuration.exchangeLog = try ExchangeLog(path: path)
            } catch {
                Terminal.error("chatbench serve: cannot open the exchange log \(path): \(error)")
                throw ExitCode(1)
            }
        }
        configuration.requestTimeout = .milliseconds(Int64(requestTimeout * 1000))
        configuration.maxConnections = maxConnections
        configuration.maxConnectionsPerAddress = maxConnectionsPerAddress
        configuration.maxStreamsPerUser = maxStreamsPerUser
        let server: ChatServer
        do {
            server = try ChatServer(configuration: configuration)
        } catch let refusal as ChatServer.Refusal {
            Terminal.error("chatbench serve: \(refusal)")
            throw ExitCode(1)
        } catch {
            Terminal.error("chatbench serve: cannot open the database \(db): \(error)")
            throw ExitCode(1)
        }
        for apiKey in ((try? server.backend.apps()) ?? []).filter(\.settings.allowUserIdOnly).map(\.apiKey) {
            Terminal.error(
                "chatbench serve: warning: app \(String(apiKey.prefix(4)))… (its API key's start) lets anyone with its API key sign in as any "
                    + "of its users by id alone (allowUserIdOnly); turn it off in its settings "
                    + "(POST /v1/app/settings, or `server settings allowUserIdOnly=false` in the workbench)")
        }
        let signals = SecondSignal.exitAtOnce()
        defer { for source in signals { source.cancel() } }
        if let maxConnections, server.connectionLimits.total < maxConnections {
            Terminal.error(
                "chatbench serve: --max-connections \(maxConnections) is more than the open-file limit allows; holding at most \(server.connectionLimits.total)"
            )
        }
        let host = self.host
        let db = self.db
        let failure = Mutex<(any Error)?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                try await server.run(handleSignals: true) { port in
                    FileHandle.standardOutput.write(Data("chatbench serve: listening on http://\(host):\(port) (db \(db))\n".utf8))
                }
            } catch {
                failure.withLock { $0 = error }
            }
            done.signal()
        }
        done.wait()
        if let error = failure.withLock({ $0 }) {
            Terminal.error("chatbench serve: \(error)")
            throw ExitCode(1)
        }
    }
}

/// A second SIGINT or SIGTERM during a graceful shutdown ends the process at
/// once, as operators expect (issue 26); the first is ServiceLifecycle's.
enum SecondSignal {
    static func exitAtOnce() -> [any DispatchSourceSignal] {
        let count = Mutex(0)
        return [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                let seen = count.withLock { value -> Int in
                    value += 1
                    return value
                }
                if seen >= 2 {
                    Terminal.error("chatbench serve: second signal, exiting now")
                    exit(1)
                }
            }
            source.resume()
            return source
        }
    }
}
