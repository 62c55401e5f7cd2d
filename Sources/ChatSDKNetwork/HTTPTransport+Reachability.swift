#if canImport(Network)
    import Dispatch
    import Network

    /// On Apple platforms the HTTP transport follows the system's path: the
    /// SDK hears that the network went or came back as NWPathMonitor says
    /// (D7), on top of what the app tells it (`networkReachabilityChanged`).
    extension HTTPTransport {
        package func reachability() -> AsyncStream<Bool> {
            AsyncStream { continuation in
                let monitor = PathMonitor()
                monitor.start { satisfied in continuation.yield(satisfied) }
                continuation.onTermination = { _ in monitor.cancel() }
            }
        }
    }

    /// One NWPathMonitor and its queue.
    // @unchecked Sendable: NWPathMonitor is thread-safe (Network's documentation:
    // start and cancel may be called from any thread); the monitor is set once,
    // in init, and never replaced.
    private final class PathMonitor: @unchecked Sendable {
        private let monitor = NWPathMonitor()
        private let queue = DispatchQueue(label: "chatbench.path-monitor")

        func start(_ handler: @escaping @Sendable (Bool) -> Void) {
            monitor.pathUpdateHandler = { path in handler(path.status == .satisfied) }
            monitor.start(queue: queue)
        }

        func cancel() { monitor.cancel() }
    }
#endif
