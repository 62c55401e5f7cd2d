package import ChatCore
import Foundation

/// A transport that reports everything crossing another one: each request
/// and its answer, each event stream's opening, frames and close (the
/// traffic tape of server mode, SPEC W5). What it reports is in clear: the
/// recorder redacts it when it writes it.
///
/// ```swift
/// let tape = TapeRecordingTransport(wrapping: HTTPTransport(baseURL: url), runtime: runtime) { entry in
///     traffic.withLock { $0.append(entry) }
/// }
/// ```
///
/// Entries of one exchange share an ``TrafficEntry/exchange`` number, counted
/// from 1 by this transport; clients that share a device id must share one
/// recording transport, so that their numbers do not collide.
package final class TapeRecordingTransport: ChatTransport {
    package let inner: any ChatTransport
    package let runtime: any ChatRuntime
    package let reporter: TrafficReporter

    /// Wraps `inner`, reporting to `sink` what crosses it, at `runtime`'s
    /// `now`. `sink` is called on the caller's task, in the order things
    /// cross.
    package init(wrapping inner: any ChatTransport, runtime: any ChatRuntime, sink: @escaping @Sendable (TrafficEntry) -> Void) {
        self.inner = inner
        self.runtime = runtime
        reporter = TrafficReporter(runtime: runtime, sink: sink)
    }

    package func perform(_ envelope: WireEnvelope) async throws -> WireResponse {
        let exchange = reporter.request(envelope)
        do {
            return reporter.answered(try await inner.perform(envelope), to: envelope, exchange: exchange)
        } catch {
            throw reporter.failed(error, for: envelope, exchange: exchange)
        }
    }

    package func openRealtime(_ request: RealtimeRequest) async throws -> RealtimeConnection {
        let exchange = reporter.opening(request)
        let device = request.deviceId
        let connection: RealtimeConnection
        do {
            connection = try await inner.openRealtime(request)
        } catch {
            reporter.opened(.failure(error), deviceId: device, exchange: exchange)
            throw error
        }
        reporter.opened(.success(()), deviceId: device, exchange: exchange)
        // Frames are relayed by a task on the client's runtime, so that each
        // is reported when it arrives, not when the SDK gets to it.
        let (signals, continuation) = AsyncStream<RealtimeSignal>.makeStream()
        let closed = ClosedFlag()
        let reporter = self.reporter
        let relay = runtime.spawn {
            for await signal in connection.signals {
                // After the SDK closed it, what the stream still held is not its.
                guard !closed.isSet else { break }
                reporter.signal(signal, deviceId: device, exchange: exchange)
                continuation.yield(signal)
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in relay.cancel() }
        return RealtimeConnection(
            signals: signals,
            close: {
                if closed.set() { reporter.closedByClient(deviceId: device, exchange: exchange) }
                connection.close()
            })
    }

    package func reachability() -> AsyncStream<Bool> {
        inner.reachability()
    }

    package var isReachable: Bool? { inner.isReachable }

    package func networkFailure(of error: any Error) -> TransportError? { inner.networkFailure(of: error) }
}

/// Whether the SDK closed a connection (set once).
package final class ClosedFlag: Sendable {
    package init() {}
    private let value = LockedValue(false)

    package var isSet: Bool { value.withLock { $0 } }

    /// Sets the flag; true the first time.
    package func set() -> Bool {
        value.withLock { set in
            defer { set = true }
            return !set
        }
    }
}
