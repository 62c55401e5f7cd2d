import Foundation

extension TrafficEntry.Kind {
    /// The kind as the `traffic.kind` column keeps it: the bytes of its
    /// `Codable` encoding with sorted keys (what ``init(json:)`` reads),
    /// written by hand: recording traffic is on the hot path of a recorded
    /// session, and a second `JSONEncoder` per entry beside its body's
    /// would cost more than the kind is worth (checked against the encoder
    /// in TrafficKindTests).
    package var json: String {
        var json = JSONText()
        switch self {
        case .request(let method, let path, let query):
            json.open("request")
            json.field("method", .text(method))
            json.raw(",")
            json.field("path", .text(path))
            json.raw(",")
            json.key("query")
            json.raw("{")
            json.fields(query)
            json.raw("}")
            json.close()
        case .answer(let outcome): json.wrapping("answer") { outcome.write(&$0) }
        case .open(let after): json.object("open", ["afterUserSeq": after.map(JSONText.Value.number)])
        case .close: json.object("close", [:])
        case .ready: json.object("ready", [:])
        case .refused(let outcome): json.wrapping("refused") { outcome.write(&$0) }
        case .event(let seq, let name): json.object("event", ["name": .text(name), "seq": .number(seq)])
        case .closed(let reason, let by): json.object("closed", ["by": .text(by.rawValue), "reason": .text(reason)])
        // Off the hot path (the workbench's own calls): the encoder's.
        case .call: return TapeCoding.encode(self).map { String(decoding: $0, as: UTF8.self) } ?? ""
        case .fault(let fault): json.wrapping("fault") { fault.write(&$0) }
        case .untyped(let summary): json.wrapping("untyped") { $0.string(summary) }
        }
        return json.text
    }

    /// A kind read back from the `traffic.kind` column; nil when it is not
    /// one this version knows.
    package init?(json: String) {
        guard let kind = TapeCoding.decode(Self.self, from: Data(json.utf8)) ?? Self(legacyJSON: json) else { return nil }
        self = kind
    }
}

extension TrafficEntry.Outcome {
    fileprivate func write(_ json: inout JSONText) {
        switch self {
        case .ok(let response): json.object("ok", ["response": response.map(JSONText.Value.text)])
        case .rejected(let code): json.object("rejected", ["code": .text(code)])
        case .offline: json.object("offline", [:])
        case .failed: json.object("failed", [:])
        case .cancelled: json.object("cancelled", [:])
        }
    }
}

extension TrafficEntry.Fault {
    fileprivate func write(_ json: inout JSONText) {
        let device = self.device.map(JSONText.Value.text)
        switch self {
        case .offline: json.object("offline", ["device": device])
        case .online: json.object("online", ["device": device])
        case .latency(let milliseconds, _): json.object("latency", ["device": device, "milliseconds": .number(milliseconds)])
        case .failNext(let count, let kind, _):
            json.object("failNext", ["count": .number(Int64(count)), "device": device, "kind": kind.map(JSONText.Value.text)])
        case .drop: json.object("drop", ["device": device])
        case .cut(let count, let point, _):
            json.object("cut", ["count": .number(Int64(count)), "device": device, "point": .text(point)])
        case .restart: json.object("restart", ["device": device])
        case .lost(let request, _): json.object("lost", ["device": device, "request": .text(request)])
        }
    }

    /// The device it names, if any.
    var device: String? {
        switch self {
        case .offline(let device), .online(let device), .latency(_, let device), .failNext(_, _, let device), .drop(let device),
            .cut(_, _, let device):
            device
        case .restart(let device), .lost(_, let device): device
        }
    }
}
