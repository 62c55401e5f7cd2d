extension TrafficEntry.Kind {
    /// The kind with each of its texts passed through `redact` (the
    /// session's redaction function) from the last its summary shows to the
    /// first, so that placeholders are numbered as when the summary was
    /// redacted as one line (the redactor numbers a line's matches from its
    /// last). Numbers and names the SDK chose (a method, a response's case,
    /// an event's kind) hold no secret.
    package func redacted(_ redact: (String) -> String) -> Self {
        switch self {
        case .request(let method, let path, let query):
            var redacted: [String: String] = [:]
            for key in query.keys.sorted().reversed() { redacted[key] = redact(query[key] ?? "") }
            let path = redact(path)
            return .request(method: method, path: path, query: redacted)
        case .answer(let outcome): return .answer(outcome.redacted(redact))
        case .refused(let outcome): return .refused(outcome.redacted(redact))
        case .closed(let reason, let by): return .closed(reason: redact(reason), by: by)
        case .call(let call): return .call(call.redacted(redact))
        case .fault(let fault): return .fault(fault.redacted(redact))
        case .untyped(let summary): return .untyped(redact(summary))
        case .open, .close, .ready, .event: return self
        }
    }
}

extension TrafficEntry.Outcome {
    func redacted(_ redact: (String) -> String) -> Self {
        switch self {
        // A server's error code is the server's text.
        case .rejected(let code): .rejected(code: redact(code))
        case .ok, .offline, .failed, .cancelled: self
        }
    }
}

extension TrafficEntry.Fault {
    func redacted(_ redact: (String) -> String) -> Self {
        switch self {
        case .offline(let device): .offline(device: device.map(redact))
        case .online(let device): .online(device: device.map(redact))
        case .latency(let milliseconds, let device): .latency(milliseconds: milliseconds, device: device.map(redact))
        case .failNext(let count, let kind, let device): .failNext(count: count, kind: kind, device: device.map(redact))
        case .drop(let device): .drop(device: device.map(redact))
        case .cut(let count, let point, let device): .cut(count: count, point: point, device: device.map(redact))
        case .restart(let device): .restart(device: redact(device))
        case .lost(let request, let device): .lost(request: request, device: redact(device))
        }
    }
}
