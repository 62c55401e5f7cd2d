import ChatServer
import Dispatch
import Foundation
import Logging
import Synchronization

/// `--server fresh`: a new in-process `chatbench serve` for each file
/// (in memory, on a free loopback port, seeded with the file's seed), so
/// that files run against a server as they do embedded: each from an empty
/// backend, several at once.
enum FreshServer {
    static let keyword = "fresh"

    /// With `CHATBENCH_EXCHANGE_LOG=FILE`, every answer of every fresh
    /// server is appended to FILE (one log for the process: the files run
    /// in parallel), for scripts/openapi_check.py to check against the document.
    static let exchangeLog: ExchangeLog? = ProcessInfo.processInfo.environment["CHATBENCH_EXCHANGE_LOG"].flatMap {
        try? ExchangeLog(path: $0)
    }

    @Sendable
    static func start(seed: UInt64) throws -> (url: String, stop: @Sendable () -> Void) {
        var configuration = ChatServer.Configuration(host: "127.0.0.1", port: 0, databasePath: nil, seed: seed)
        configuration.logger = Logger(label: "chatbench.server", factory: { _ in SwiftLogNoOpLogHandler() })
        configuration.exchangeLog = exchangeLog
        let server = try ChatServer(configuration: configuration)
        let outcome = Mutex<Result<ChatServer.Running, any Error>?>(nil)
        let started = DispatchSemaphore(value: 0)
        Task.detached {
            let result: Result<ChatServer.Running, any Error>
            do { result = .success(try await server.start()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            started.signal()
        }
        started.wait()
        let running = try outcome.withLock { $0 }!.get()
        return (
            running.baseURL,
            {
                let stopped = DispatchSemaphore(value: 0)
                Task.detached {
                    await running.stop()
                    stopped.signal()
                }
                stopped.wait()
            }
        )
    }
}
