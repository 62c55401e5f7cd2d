extension TrafficEntry.Kind {
    /// The one line for people (the `traffic.summary` column, `sessions
    /// show --traffic`, the timeline and the HTML view): its one rendering.
    /// Nothing reads it back.
    package var summary: String {
        switch self {
        case .request(let method, let path, let query):
            let query = query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
            return "\(method) \(path)\(query.isEmpty ? "" : "?" + query)"
        case .answer(let outcome): return outcome.summary(failing: "error")
        case .open(let after): return "open after=\(after.map(String.init) ?? "-")"
        case .close: return "close"
        case .ready: return "ready"
        case .refused(let outcome): return outcome.summary(failing: "refused")
        case .event(let seq, let name): return "event #\(seq) \(name)"
        case .closed(let reason, _): return "closed: \(reason)"
        case .call(let call): return call.rendering
        case .fault(let fault): return fault.summary
        case .untyped(let summary): return summary
        }
    }
}

extension TrafficEntry.Outcome {
    /// `ok sent`, `ok`, `error expiredToken`, `error offline`; `word`
    /// instead of `error` for a refused event stream (`refused offline`).
    func summary(failing word: String) -> String {
        switch self {
        case .ok(let response): response.map { "ok \($0)" } ?? "ok"
        case .rejected(let code): "\(word) \(code)"
        case .offline: "\(word) offline"
        case .failed: "\(word) failed"
        case .cancelled: "\(word) cancelled"
        }
    }
}

extension TrafficEntry.Fault {
    /// `offline`, `online device-1`, `latency 200ms`, `fail next 3 (timeout)`,
    /// `drop`, `cut 2 in flight after-commit`, `restart device-alice`,
    /// `lost sendMessage from device-alice`.
    package var summary: String {
        switch self {
        case .offline(let device): "offline" + Self.on(device)
        case .online(let device): "online" + Self.on(device)
        case .latency(let milliseconds, let device): "latency \(milliseconds)ms" + Self.on(device)
        case .failNext(let count, let kind, let device): "fail next \(count)" + (kind.map { " (\($0))" } ?? "") + Self.on(device)
        case .drop(let device): "drop" + Self.on(device)
        case .cut(let count, let point, let device): "cut \(count) in flight \(point)" + Self.on(device)
        case .restart(let device): "restart \(device)"
        case .lost(let request, let device): "lost \(request) from \(device)"
        }
    }

    private static func on(_ device: String?) -> String {
        device.map { " \($0)" } ?? ""
    }
}
