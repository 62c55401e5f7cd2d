import Dispatch

/// Runs the backend's synchronous calls on a thread of their own.
///
/// `Backend` is synchronous: SQLite work and event delivery happen inside the
/// call. Called from a request handler, it would hold one of the few threads
/// of Swift's cooperative pool (two on a 2-core machine) for the whole call,
/// and while one call waits for the database's lock the other thread waits
/// too, so WebSocket writes and request parsing stall behind SQLite. Here a
/// handler suspends instead, and one serial queue does the backend's work in
/// the order it was asked. The backend still takes its own lock, so a call
/// made elsewhere (a test, the workbench) stays safe.
enum BackendThread {
    private static let queue = DispatchQueue(label: "chatbench.server.backend", qos: .userInitiated)

    /// The result of `body`, run on the backend's thread.
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }

    /// As ``run(_:)``, for a call that does not throw.
    static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: body()) }
        }
    }
}
