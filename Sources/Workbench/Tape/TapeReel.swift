import ChatCore
import ChatSDK
import Foundation

/// A tape being played: its entries, which of them the SDK has used, and
/// where it asked for something else. Plain state, no waiting: the
/// ``TapeTransport`` does the waiting.
struct TapeReel {
    /// What the tape has for an event stream's opening.
    struct Opening {
        /// `ready`, or the refusal.
        var answer: RecordedTraffic
        /// Indices of its frames (events, then perhaps its close), in order.
        var frames: [Int]
        /// Index of the SDK's own close of it, if the tape has one.
        var close: Int?
    }

    private(set) var tape: [RecordedTraffic]
    private var used: [Bool]
    private(set) var divergences: [TapeDivergence] = []

    init(_ tape: [RecordedTraffic]) {
        self.tape = tape
        used = Array(repeating: false, count: tape.count)
    }

    /// The entries nothing has used.
    var unused: [RecordedTraffic] {
        tape.indices.filter { !used[$0] }.map { tape[$0] }
    }

    mutating func markUsed(_ index: Int) {
        used[index] = true
    }

    // MARK: Requests

    /// Takes the request the tape has for `envelope` and returns its answer
    /// (nil when the tape ends before it). Records a divergence when the
    /// request differs; throws when even its route is not the tape's.
    mutating func takeRequest(_ envelope: WireEnvelope, step: Int?) throws(TransportError) -> RecordedTraffic? {
        let device = envelope.deviceId
        let sent = TapeCoding.masked(envelope)
        let kind = TrafficEntry.Kind(envelope.request)
        let summary = kind.summary
        func recorded(_ index: Int) -> WireEnvelope? {
            TapeCoding.decode(WireEnvelope.self, from: tape[index].entry.body).map(TapeCoding.masked)
        }
        let candidates = tape.indices.filter { !used[$0] && isEntry($0, device, .http, .out) }
        let shown = "\(summary) \(TapeCoding.text(TapeCoding.encode(sent)))"
        guard let next = candidates.first else {
            divergences.append(TapeDivergence(step: step, deviceId: device, sent: shown, tape: nil))
            throw TransportError(.failed, "\(summary) from \(device) is not on the tape: it has no more requests from \(device)")
        }
        var chosen = next
        if recorded(next) != sent {
            // Requests in flight together may have left in another order.
            if let other = candidates.first(where: { tape[$0].step == tape[next].step && recorded($0) == sent }) {
                chosen = other
            } else {
                let had = recorded(next).map { "\(tape[next].entry.summary) \(TapeCoding.text(TapeCoding.encode($0)))" }
                divergences.append(
                    TapeDivergence(
                        step: step ?? tape[next].step, deviceId: device, sent: shown,
                        tape: had ?? "\(tape[next].entry.summary) \(TapeCoding.text(tape[next].entry.body))"))
                guard Self.route(of: tape[next].entry.kind) == Self.route(of: kind) else {
                    throw TransportError(
                        .failed,
                        "\(summary) from \(device) is not on the tape: its next request from \(device) is \(tape[next].entry.summary)")
                }
            }
        }
        used[chosen] = true
        return takeAnswer(to: chosen)
    }

    /// The method and path of a request (`POST /v1/conversations` of
    /// `POST /v1/conversations?limit=20`); nil for another kind.
    static func route(of kind: TrafficEntry.Kind) -> Route? {
        guard case .request(let method, let path, _) = kind else { return nil }
        return Route(method: method, path: path)
    }

    struct Route: Equatable {
        var method: String
        var path: String
    }

    // MARK: Event streams

    /// Takes the opening the tape has for `request`: its answer, frames and
    /// close. Records a divergence when it differs (`afterUserSeq`); throws
    /// when the tape has no opening, or ends before its answer.
    mutating func takeOpening(_ request: RealtimeRequest, step: Int?) throws(TransportError) -> Opening {
        let device = request.deviceId
        let sent = TapeOpening(request).masked
        let shown = "\(TrafficEntry.Kind.open(afterUserSeq: sent.afterUserSeq).summary) \(TapeCoding.text(TapeCoding.encode(sent)))"
        let candidates = tape.indices.filter { !used[$0] && isEntry($0, device, .ws, .out) && tape[$0].entry.kind.isOpening }
        guard let next = candidates.first else {
            divergences.append(TapeDivergence(step: step, deviceId: device, sent: shown, tape: nil))
            throw TransportError(.failed, "the event stream of \(device) is not on the tape: it has no more openings from \(device)")
        }
        let recorded = TapeCoding.decode(TapeOpening.self, from: tape[next].entry.body)?.masked
        if recorded != sent {
            divergences.append(
                TapeDivergence(
                    step: step ?? tape[next].step, deviceId: device, sent: shown,
                    tape: "\(tape[next].entry.summary) \(TapeCoding.text(recorded.flatMap(TapeCoding.encode) ?? tape[next].entry.body))"))
        }
        used[next] = true
        guard let answer = takeAnswer(to: next) else {
            throw TransportError(.failed, "the tape ends before the event stream of \(device) opened")
        }
        // Its frames: what came in after the answer, up to the device's next opening.
        let later = tape.indices.filter { $0 > next && !used[$0] && sameExchange($0, as: next) }
        let end = later.first { tape[$0].entry.direction == .out && tape[$0].entry.kind.isOpening } ?? tape.count
        let frames = later.filter { $0 < end && tape[$0].entry.direction == .in }
        let close = later.first { $0 < end && tape[$0].entry.direction == .out && tape[$0].entry.kind == .close }
        return Opening(answer: answer, frames: frames, close: close)
    }

    // MARK: Matching

    private func isEntry(_ index: Int, _ device: String, _ channel: TrafficEntry.Channel, _ direction: TrafficEntry.Direction) -> Bool {
        let entry = tape[index].entry
        return entry.origin == .device(device) && entry.channel == channel && entry.direction == direction
    }

    /// Whether the entry at `index` belongs to the exchange `other` began:
    /// the same number, or, on a tape without numbers, the same device
    /// and channel.
    private func sameExchange(_ index: Int, as other: Int) -> Bool {
        let (entry, first) = (tape[index].entry, tape[other].entry)
        guard entry.origin == first.origin, entry.channel == first.channel else { return false }
        guard let exchange = first.exchange else { return true }
        return entry.exchange == exchange
    }

    /// The first unused answer after `index` of its exchange, marked used.
    private mutating func takeAnswer(to index: Int) -> RecordedTraffic? {
        guard
            let answer = tape.indices.first(where: {
                $0 > index && !used[$0] && tape[$0].entry.direction == .in && sameExchange($0, as: index)
            })
        else { return nil }
        used[answer] = true
        return tape[answer]
    }
}
