import ChatCore
import ChatSDK
import Foundation
import Synchronization

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
public final class TapeRecordingTransport: ChatTransport {
    let inner: any ChatTransport
    let runtime: any ChatRuntime
    let sink: @Sendable (TrafficEntry) -> Void
    private let exchanges = Mutex(0)

    /// Wraps `inner`, reporting to `sink` what crosses it, at `runtime`'s
    /// `now`. `sink` is called on the caller's task, in the order things
    /// cross.
    public init(wrapping inner: any ChatTransport, runtime: any ChatRuntime, sink: @escaping @Sendable (TrafficEntry) -> Void) {
        self.inner = inner
        self.runtime = runtime
        self.sink = sink
    }

    public func perform(_ envelope: WireEnvelope) async throws -> WireResponse {
        let exchange = nextExchange()
        report(envelope.deviceId, .http, .out, TapeCoding.summary(of: envelope.request), TapeCoding.encode(envelope), exchange)
        do {
            let response = try await inner.perform(envelope)
            let answer = TapeAnswer(response)
            report(envelope.deviceId, .http, .in, answer.summary(), TapeCoding.encode(answer), exchange)
            return response
        } catch {
            let answer = TapeAnswer(error: error)
            report(envelope.deviceId, .http, .in, answer.summary(), TapeCoding.encode(answer), exchange)
            throw error
        }
    }

    public func openRealtime(_ request: RealtimeRequest) async throws -> RealtimeConnection {
        let exchange = nextExchange()
        let device = request.deviceId
        let opening = TapeOpening(request)
        report(device, .ws, .out, opening.summary, TapeCoding.encode(opening), exchange)
        let connection: RealtimeConnection
        do {
            connection = try await inner.openRealtime(request)
        } catch {
            let answer = TapeAnswer(error: error)
            report(device, .ws, .in, answer.summary(failing: "refused"), TapeCoding.encode(answer), exchange)
            throw error
        }
        report(device, .ws, .in, "ready", nil, exchange)
        // Frames are relayed by a task on the client's runtime, so that each
        // is reported when it arrives, not when the SDK gets to it.
        let (signals, continuation) = AsyncStream<RealtimeSignal>.makeStream()
        let closed = ClosedFlag()
        let relay = runtime.spawn { [self] in
            for await signal in connection.signals {
                // After the SDK closed it, what the stream still held is not its.
                guard !closed.isSet else { break }
                switch signal {
                case .event(let event):
                    report(device, .ws, .in, event.tapeSummary, TapeCoding.encode(event), exchange)
                case .closed(let reason):
                    report(device, .ws, .in, "closed: \(reason)", TapeCoding.encode(TapeClose(reason: reason)), exchange)
                }
                continuation.yield(signal)
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in relay.cancel() }
        return RealtimeConnection(signals: signals, close: { [self] in
            if closed.set() { report(device, .ws, .out, "close", nil, exchange) }
            connection.close()
        })
    }

    public func reachability() -> AsyncStream<Bool> {
        inner.reachability()
    }

    public var isReachable: Bool? { inner.isReachable }

    private func nextExchange() -> Int {
        exchanges.withLock { count in
            count += 1
            return count
        }
    }

    private func report(
        _ device: String, _ channel: TrafficEntry.Channel, _ direction: TrafficEntry.Direction, _ summary: String,
        _ body: Data?, _ exchange: Int
    ) {
        sink(TrafficEntry(
            time: runtime.now, deviceId: device, channel: channel, direction: direction, summary: summary, body: body,
            exchange: exchange))
    }
}

/// Whether the SDK closed a connection (set once).
final class ClosedFlag: Sendable {
    private let value = Mutex(false)

    var isSet: Bool { value.withLock { $0 } }

    /// Sets the flag; true the first time.
    func set() -> Bool {
        value.withLock { set in
            defer { set = true }
            return !set
        }
    }
}
