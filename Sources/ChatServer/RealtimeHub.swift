import ChatBackend
import ChatCore
import ServiceLifecycle
import Synchronization

/// The open event streams, so that the server can close them (a drop asked
/// by the workbench, a shutdown, a user's streams past the cap).
final class RealtimeHub: Sendable {
    /// Why and how the server closes a stream: the WebSocket close code and
    /// the reason the client reads.
    struct Close: Sendable, Equatable {
        var code: UInt16
        var reason: String

        /// 1001: the server ends it (a drop, a shutdown, the session closed).
        static func goingAway(_ reason: String) -> Close { Close(code: 1001, reason: reason) }
        /// 1008: the user has too many streams open.
        static func tooManyStreams(_ limit: Int) -> Close {
            Close(code: 1008, reason: "too many event streams for this user (at most \(limit)): closed the oldest")
        }
        /// 1013 (try again later): the client does not read what it is sent.
        static func slowConsumer(frames: Int) -> Close {
            Close(code: 1013, reason: "slow consumer: \(frames) events waiting to be sent; reconnect with after= to catch up")
        }
    }

    struct Entry {
        var apiKey: String
        /// The key of the stream's user (``AppKey``), unique across apps.
        var userId: String?
        var close: AsyncStream<Close>.Continuation
    }

    let maxStreamsPerUser: Int
    private let state = Mutex<(next: Int, entries: [Int: Entry])>((0, [:]))

    init(maxStreamsPerUser: Int = 8) {
        self.maxStreamsPerUser = max(1, maxStreamsPerUser)
    }

    /// Registers a stream; the user's oldest streams past the cap are asked to close.
    func register(apiKey: String, userId: String?, close: AsyncStream<Close>.Continuation) -> Int {
        let (id, evicted) = state.withLock { state -> (Int, [Entry]) in
            let id = state.next
            state.next += 1
            var evicted: [Entry] = []
            if let userId {
                let same = state.entries.filter { $0.value.apiKey == apiKey && $0.value.userId == userId }.keys.sorted()
                for old in same.prefix(max(0, same.count - (maxStreamsPerUser - 1))) {
                    if let entry = state.entries.removeValue(forKey: old) { evicted.append(entry) }
                }
            }
            state.entries[id] = Entry(apiKey: apiKey, userId: userId, close: close)
            return (id, evicted)
        }
        for entry in evicted {
            entry.close.yield(.tooManyStreams(maxStreamsPerUser))
            entry.close.finish()
        }
        return id
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
                    // A stream is labelled with its user's key; the app names the user by id (``AppKey``).
                    && (userId.map { entry.userId.map { AppKey.visible($0) }?.isSameIdentifier(as: $0) == true } ?? true)
            }
        }
        for entry in dropped {
            entry.close.yield(.goingAway(reason))
            entry.close.finish()
        }
        return dropped.count
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
