import ChatCore
import ChatSDK
import Foundation
import Synchronization

/// A transport that answers from a recorded traffic tape, with the server
/// stopped (SPEC W7, `replay --tape`): the SDK gets exactly the answers and
/// frames it got when the session was recorded, at the recorded times.
///
/// One tape serves every client of the session: requests are matched by
/// the device id they carry. Each request takes that device's next recorded
/// request; one that differs (secrets aside: the tape holds placeholders)
/// is kept in ``divergences`` and still answered from the tape when its
/// route (method and path) is the same, else it fails with a
/// `TransportError` saying it is not on the tape.
///
/// A replay driver calls ``beginStep(_:)`` before each step, so that the
/// frames recorded during step N are delivered during step N:
///
/// ```swift
/// let tape = TapeTransport(tape: try store.traffic(of: session.id), runtime: world)
/// for step in steps {
///     tape.beginStep(step.number)
///     run(step.input)            // the world runs until no work is in flight
/// }
/// if !tape.divergences.isEmpty || !tape.unusedEntries.isEmpty { … }
/// ```
package final class TapeTransport: ChatTransport {
    let runtime: any ChatRuntime
    private let reel: Mutex<TapeReel>
    private let gate = TapeStepGate()

    /// Plays `tape` (a session's traffic, in order) on `runtime`'s clock:
    /// in a replay, the embedded world's virtual clock, which answers move
    /// forward to their recorded times.
    package init(tape: [RecordedTraffic], runtime: any ChatRuntime) {
        self.runtime = runtime
        reel = Mutex(TapeReel(tape))
    }

    /// Plays entries that belong to no step (delivered whenever due).
    package convenience init(entries: [TrafficEntry], runtime: any ChatRuntime) {
        let tape = entries.enumerated().map { index, entry in
            RecordedTraffic(seq: index + 1, step: nil, wallTime: Date(timeIntervalSince1970: 0), entry: entry)
        }
        self.init(tape: tape, runtime: runtime)
    }

    /// Step `number` of the replay starts: frames the tape recorded during
    /// it (and earlier) may now be delivered. Until a first step is begun,
    /// every frame is delivered as soon as its time comes.
    package func beginStep(_ number: Int) {
        gate.begin(number)
    }

    /// Requests the SDK made that are not the ones the tape has, in order.
    package var divergences: [TapeDivergence] {
        reel.withLock { $0.divergences }
    }

    /// What the tape has that the SDK did not ask for (or has not been
    /// delivered yet), in order.
    package var unusedEntries: [RecordedTraffic] {
        reel.withLock { $0.unused }
    }

    package func perform(_ envelope: WireEnvelope) async throws -> WireResponse {
        let step = gate.current
        let answer = try reel.withLock { reel throws(TransportError) in try reel.takeRequest(envelope, step: step) }
        guard let answer else {
            throw TransportError(.failed, "the tape ends before the answer to \(envelope.request.name) from \(envelope.deviceId)")
        }
        try await runtime.sleep(until: answer.entry.time, kind: .inFlight)
        guard let recorded = TapeCoding.decode(TapeAnswer.self, from: answer.entry.body) else {
            throw TransportError(
                .failed, "the tape's answer to \(envelope.request.name) (#\(answer.seq): \(answer.entry.summary)) cannot be read")
        }
        return try recorded.result()
    }

    package func openRealtime(_ request: RealtimeRequest) async throws -> RealtimeConnection {
        let step = gate.current
        let opening = try reel.withLock { reel throws(TransportError) in try reel.takeOpening(request, step: step) }
        try await runtime.sleep(until: opening.answer.entry.time, kind: .inFlight)
        if opening.answer.entry.kind != .ready {
            let refusal = TapeCoding.decode(TapeAnswer.self, from: opening.answer.entry.body)
            _ = try refusal?.result()
            throw TransportError(
                .failed, "the tape's refusal of the event stream (#\(opening.answer.seq): \(opening.answer.entry.summary)) cannot be read")
        }
        let frames = reel.withLock { reel in opening.frames.map { (index: $0, traffic: reel.tape[$0]) } }
        let (signals, continuation) = AsyncStream<RealtimeSignal>.makeStream()
        let closed = ClosedFlag()
        let delivery = runtime.spawn { [self] in
            for frame in frames {
                guard await gate.wait(for: frame.traffic.step) else { return }
                do {
                    try await runtime.sleep(until: frame.traffic.entry.time, kind: .inFlight)
                } catch {
                    return
                }
                guard !closed.isSet else { return }
                // One it cannot read stays among the unused entries.
                guard let signal = Self.signal(frame.traffic.entry) else { continue }
                reel.withLock { $0.markUsed(frame.index) }
                continuation.yield(signal)
                if case .closed = signal {
                    continuation.finish()
                    return
                }
            }
            // A tape without the close: the stream stays open, as it was
            // when the recording ended.
        }
        continuation.onTermination = { _ in delivery.cancel() }
        return RealtimeConnection(
            signals: signals,
            close: { [self] in
                guard closed.set() else { return }
                if let close = opening.close { reel.withLock { $0.markUsed(close) } }
                delivery.cancel()
                continuation.finish()
            })
    }

    /// The signal a recorded frame stands for; nil for one it cannot read.
    static func signal(_ entry: TrafficEntry) -> RealtimeSignal? {
        switch entry.kind {
        case .event: TapeCoding.decode(WireEvent.self, from: entry.body).map(RealtimeSignal.event)
        case .closed(let reason, let by): .closed(reason: TapeCoding.decode(TapeClose.self, from: entry.body)?.reason ?? reason, by: by)
        default: nil
        }
    }
}
