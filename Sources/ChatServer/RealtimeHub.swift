import ChatCore
import ServiceLifecycle
import Synchronization

/// The open event streams, so that the server can close them (a drop asked
/// by the workbench, a shutdown).
final class RealtimeHub: Sendable {
    enum Frame: Sendable {
        case event(WireEvent)
        case close(reason: String)
    }

    struct Entry {
        var apiKey: String
        var userId: String?
        var continuation: AsyncStream<Frame>.Continuation
    }

    private let state = Mutex<(next: Int, entries: [Int: Entry])>((0, [:]))

    func register(apiKey: String, continuation: AsyncStream<Frame>.Continuation) -> Int {
        state.withLock { state in
            let id = state.next
            state.next += 1
            state.entries[id] = Entry(apiKey: apiKey, continuation: continuation)
            return id
        }
    }

    func remove(_ id: Int) {
        _ = state.withLock { $0.entries.removeValue(forKey: id) }
    }

    var count: Int { state.withLock { $0.entries.count } }

    /// Asks matching streams to close; returns how many.
    @discardableResult
    func dropAll(apiKey: String?, userId: String?, reason: String) -> Int {
        // One spelling of an id, compared byte for byte (``Identifier``).
        let apiKey = apiKey.map { Identifier.normalized($0) }
        let userId = userId.map { Identifier.normalized($0) }
        let dropped = state.withLock { state -> [Entry] in
            state.entries.values.filter { entry in
                (apiKey.map { entry.apiKey.isSameIdentifier(as: $0) } ?? true)
                    && (userId.map { entry.userId?.isSameIdentifier(as: $0) == true } ?? true)
            }
        }
        for entry in dropped {
            entry.continuation.yield(.close(reason: reason))
            entry.continuation.finish()
        }
        return dropped.count
    }

    func setUser(_ userId: String, for id: Int) {
        state.withLock { $0.entries[id]?.userId = userId }
    }
}

/// Closes the event streams when the server shuts down gracefully, so that
/// clients see a clean close (and reconnect, and catch up) at once.
/// The server's grace period starts then too: connections still open when
/// it ends (requests not answered in time, clients that do not close) are closed.
struct RealtimeShutdown: Service {
    let hub: RealtimeHub
    let connections: ConnectionRegistry
    let grace: Duration

    func run() async throws {
        try? await gracefulShutdown()
        hub.dropAll(apiKey: nil, userId: nil, reason: "server shutting down")
        let connections = self.connections
        let grace = self.grace
        Task {
            try? await Task.sleep(for: grace)
            connections.closeAll()
        }
    }
}
