package import ChatCore
import Foundation

/// Turns what crosses a transport boundary into traffic entries (the rows
/// of the `traffic` table), stamped with `runtime`'s `now`: used by the
/// server mode's ``TapeRecordingTransport`` and told directly by the
/// embedded world's network. Exchange numbers count from 1 per device.
/// What it reports is in clear: the recorder redacts it when it writes it.
package final class TrafficReporter: WireObserver {
    package let runtime: any ChatRuntime
    package let sink: @Sendable (TrafficEntry) -> Void
    /// Whether anyone reads the traffic (a recording, an HTML capture):
    /// when not, nothing is typed or encoded. Exchanges are numbered
    /// all the same.
    package let isCapturing: @Sendable () -> Bool
    private let exchanges = LockedValue<[String: Int]>([:])

    package init(
        runtime: any ChatRuntime, sink: @escaping @Sendable (TrafficEntry) -> Void,
        isCapturing: @escaping @Sendable () -> Bool = { true }
    ) {
        self.runtime = runtime
        self.sink = sink
        self.isCapturing = isCapturing
    }

    package func request(_ envelope: WireEnvelope) -> Int {
        let exchange = next(envelope.deviceId)
        report(.device(envelope.deviceId), .http, .out, TrafficEntry.Kind(envelope.request), TapeCoding.encode(envelope), exchange)
        return exchange
    }

    package func answer(_ result: Result<WireResponse, any Error>, deviceId: String, exchange: Int) {
        guard isCapturing() else { return }
        let answer =
            switch result {
            case .success(let response): TapeAnswer(response)
            case .failure(let error): TapeAnswer(error: error)
            }
        report(.device(deviceId), .http, .in, .answer(answer.outcome), TapeCoding.encode(answer), exchange)
    }

    package func opening(_ request: RealtimeRequest) -> Int {
        let exchange = next(request.deviceId)
        let opening = TapeOpening(request)
        report(.device(request.deviceId), .ws, .out, .open(afterUserSeq: request.afterUserSeq), TapeCoding.encode(opening), exchange)
        return exchange
    }

    package func opened(_ result: Result<Void, any Error>, deviceId: String, exchange: Int) {
        switch result {
        case .success:
            report(.device(deviceId), .ws, .in, .ready, nil, exchange)
        case .failure(let error):
            let answer = TapeAnswer(error: error)
            report(.device(deviceId), .ws, .in, .refused(answer.outcome), TapeCoding.encode(answer), exchange)
        }
    }

    package func signal(_ signal: RealtimeSignal, deviceId: String, exchange: Int) {
        switch signal {
        case .event(let event):
            report(.device(deviceId), .ws, .in, .event(seq: event.userSeq, name: event.tapeName), TapeCoding.encode(event), exchange)
        case .closed(let reason, let by):
            report(.device(deviceId), .ws, .in, .closed(reason: reason, by: by), TapeCoding.encode(TapeClose(reason: reason)), exchange)
        }
    }

    package func closedByClient(deviceId: String, exchange: Int) {
        report(.device(deviceId), .ws, .out, .close, nil, exchange)
    }

    /// A fault or a change of the network's conditions: the network's entry.
    package func fault(_ fault: TrafficEntry.Fault) {
        report(.network, .http, .out, .fault(fault), nil, nil)
    }

    private func next(_ device: String) -> Int {
        exchanges.withLock { counts in
            counts[device, default: 0] += 1
            return counts[device]!
        }
    }

    private func report(
        _ origin: TrafficEntry.Origin, _ channel: TrafficEntry.Channel, _ direction: TrafficEntry.Direction,
        _ kind: @autoclosure () -> TrafficEntry.Kind,
        _ body: @autoclosure () -> Data?, _ exchange: Int?
    ) {
        guard isCapturing() else { return }
        sink(
            TrafficEntry(
                time: runtime.now, origin: origin, channel: channel, direction: direction, kind: kind(), body: body(),
                exchange: exchange))
    }
}
