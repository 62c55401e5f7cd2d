import ChatSDK
import Foundation

extension Builder {
    /// Each request's or opening's answer, by the request's `seq`, across
    /// steps (against a server an answer may come with the next step).
    static func answers(_ traffic: [RecordedTraffic]) -> [Int: RecordedTraffic] {
        var answers: [Int: RecordedTraffic] = [:]
        /// Requests and openings waiting for their answer, by origin and exchange.
        var open: [TrafficEntry.ExchangeKey: Int] = [:]
        for row in traffic where row.entry.origin != .network {
            let entry = row.entry
            // The other side's calls have no number: one at a time, each answered before the next.
            let key = entry.exchangeKey
            if entry.direction == .out, entry.kind != .close {
                open[key] = row.seq
            } else if entry.direction == .in, !entry.kind.isFrame, let request = open.removeValue(forKey: key) {
                answers[request] = row
            }
        }
        return answers
    }

    /// A step's traffic rows as items: a request with its answer, an event
    /// stream's opening with its answer, each frame, each fault.
    mutating func items(for rows: [RecordedTraffic]) -> [SequenceView.Item] {
        var items: [SequenceView.Item] = []
        for row in rows {
            let entry = row.entry
            let body = Self.text(of: entry.body)
            let lane: Int
            switch entry.origin {
            case .network:
                items.append(fault(entry))
                continue
            case .otherSide: lane = otherSide
            case .device(let device): lane = self.lane(ofDevice: device)
            }
            if lane != otherSide { current = lane }
            let time = entry.time.milliseconds
            if entry.direction == .out, entry.kind == .close {
                items.append(
                    .init(
                        time: time, kind: .stream, from: lane, to: server, label: "close",
                        detail: "the client closed its event stream"))
            } else if entry.direction == .out {
                var item = SequenceView.Item(
                    time: time, kind: entry.channel == .ws ? .stream : (lane == otherSide ? .call : .request),
                    from: lane, to: server, label: entry.summary, detail: entry.summary + Self.section("sent", body))
                if let answer = answers[row.seq] { answering(&item, with: answer.entry) }
                items.append(item)
            } else if answered.contains(row.seq) {
                continue
            } else {
                let cut: Bool
                if case .closed(_, .network) = entry.kind { cut = true } else { cut = false }
                items.append(
                    .init(
                        time: time, kind: .frame, from: cut ? network : server, to: lane,
                        label: entry.summary, detail: entry.summary + Self.section("frame", body)))
            }
        }
        return items
    }

    /// Gives a request its answer.
    func answering(_ item: inout SequenceView.Item, with entry: TrafficEntry) {
        item.answer = entry.summary
        item.detail +=
            "\nanswer after \(entry.time.milliseconds - item.time) ms: \(entry.summary)" + Self.section("answer", Self.text(of: entry.body))
        switch entry.kind.outcome {
        case let outcome? where outcome.isLost:
            item.kind = .lost
            item.to = network
        case .rejected?: item.kind = .refused
        default: break
        }
    }

    /// A row of the network: a change of its conditions, a fault, a restart.
    mutating func fault(_ entry: TrafficEntry) -> SequenceView.Item {
        let time = entry.time.milliseconds
        let summary = entry.summary
        var item = SequenceView.Item(time: time, kind: .fault, from: network, to: network, label: summary, detail: "network: \(summary)")
        switch entry.kind {
        case .fault(.offline(device: nil)):
            item.networkWentOffline = true
            offlineWindows.append(.init(from: time, to: nil))
        case .fault(.online(device: nil)):
            item.networkWentOffline = false
            if let last = offlineWindows.indices.last, offlineWindows[last].to == nil { offlineWindows[last].to = time }
        case .fault(.restart(let device)):
            item.kind = .restart
            item.from = lane(ofDevice: device)
            item.to = item.from
            item.label = "app restart"
            item.detail = "the app on \(device) restarted (a new SDK client on the same device)"
        case .fault(.lost(let request, let device)):
            item.kind = .lost
            item.from = lane(ofDevice: device)
            item.label = request
            item.answer = TrafficEntry.Kind.answer(.failed).summary
            item.detail = "\(summary): reset on the way (net fail)"
        default: break
        }
        return item
    }

    static func text(of body: Data?) -> String? {
        guard let body, !body.isEmpty else { return nil }
        let text = String(decoding: body, as: UTF8.self)
        return text.count > SequenceView.detailLimit ? String(text.prefix(SequenceView.detailLimit)) + "…" : text
    }

    static func section(_ title: String, _ body: String?) -> String {
        body.map { "\n\(title): \($0)" } ?? ""
    }
}
