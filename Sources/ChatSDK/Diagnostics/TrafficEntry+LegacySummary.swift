// LEGACY: the one place that reads a traffic summary back. Files written
// before schema v8 have no `traffic.kind`: their rows are typed from their
// summaries here, and only here (RecordingStore reads a row's kind with it
// when the column is NULL). Nothing else parses a summary; nothing written
// from v8 on is read by it.

import Foundation

extension TrafficEntry.Kind {
    /// LEGACY: the kind of a row written before v8, read from its summary,
    /// its channel, direction and origin (which say what the summary can
    /// be; such a row's origin is the legacy one too,
    /// ``TrafficEntry/Origin/init(legacyDeviceId:)``). One that does not
    /// render back to the same summary is ``untyped(_:)``, so that it shows
    /// as it was and fools no reader.
    package init(
        legacySummary summary: String, channel: TrafficEntry.Channel, direction: TrafficEntry.Direction, origin: TrafficEntry.Origin
    ) {
        let kind = Self.legacy(summary, channel, direction, origin) ?? .untyped(summary)
        self = kind.summary == summary ? kind : .untyped(summary)
    }

    private static func legacy(
        _ summary: String, _ channel: TrafficEntry.Channel, _ direction: TrafficEntry.Direction, _ origin: TrafficEntry.Origin
    ) -> Self? {
        if origin == .network { return legacyFault(summary).map(Self.fault) }
        switch (channel, direction) {
        case (.http, .out):
            if origin == .otherSide { return TrafficEntry.Call(legacyRendering: summary).map(Self.call) }
            return legacyRequest(summary)
        case (.http, .in): return legacyOutcome(summary, failing: "error").map(Self.answer)
        case (.ws, .out):
            if summary == "close" { return .close }
            guard let after = summary.dropping("open after=") else { return nil }
            if after == "-" { return .open(afterUserSeq: nil) }
            return Int64(after).map { .open(afterUserSeq: $0) }
        case (.ws, .in):
            if summary == "ready" { return .ready }
            if let reason = summary.dropping("closed: ") { return .closed(reason: reason, by: ClosedBy(legacyReason: reason)) }
            if let event = summary.dropping("event #"), let space = event.firstIndex(of: " "), let seq = Int64(event[..<space]) {
                return .event(seq: seq, name: String(event[event.index(after: space)...]))
            }
            return legacyOutcome(summary, failing: "refused").map(Self.refused)
        }
    }

    /// `GET /v1/conversations?limit=20`.
    private static func legacyRequest(_ summary: String) -> Self? {
        guard let space = summary.firstIndex(of: " ") else { return nil }
        let target = summary[summary.index(after: space)...]
        let path = target.prefix { $0 != "?" }
        var query: [String: String] = [:]
        if path.endIndex < target.endIndex {
            for pair in target[target.index(after: path.endIndex)...].split(separator: "&") {
                let key = pair.prefix { $0 != "=" }
                query[String(key)] = String(pair.dropFirst(key.count + 1))
            }
        }
        return .request(method: String(summary[..<space]), path: String(path), query: query)
    }

    /// `ok`, `ok sent`, `error expiredToken`, `error offline`, `refused failed`.
    private static func legacyOutcome(_ summary: String, failing word: String) -> TrafficEntry.Outcome? {
        if summary == "ok" { return .ok(response: nil) }
        if let response = summary.dropping("ok ") { return .ok(response: response) }
        guard let code = summary.dropping(word + " ") else { return nil }
        switch code {
        case "offline": return .offline
        case "failed": return .failed
        case "cancelled": return .cancelled
        default: return .rejected(code: code)
        }
    }

    /// `offline`, `online device-1`, `latency 200ms`, `fail next 3 (timeout) device-1`,
    /// `drop`, `cut 2 in flight after-commit`, `restart device-alice`,
    /// `lost sendMessage from device-alice`.
    private static func legacyFault(_ summary: String) -> TrafficEntry.Fault? {
        let words = summary.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        func device(after count: Int) -> String? {
            words.count > count ? words[count...].joined(separator: " ") : nil
        }
        switch words.first {
        case "offline": return .offline(device: device(after: 1))
        case "online": return .online(device: device(after: 1))
        case "drop": return .drop(device: device(after: 1))
        case "restart": return device(after: 1).map { .restart(device: $0) }
        case "latency":
            guard words.count > 1, let milliseconds = words[1].dropping(suffix: "ms").flatMap({ Int64($0) }) else { return nil }
            return .latency(milliseconds: milliseconds, device: device(after: 2))
        case "fail":
            guard words.count > 2, words[1] == "next", let count = Int(words[2]) else { return nil }
            if words.count > 3, let kind = words[3].dropping("(")?.dropping(suffix: ")") {
                return .failNext(count: count, kind: kind, device: device(after: 4))
            }
            return .failNext(count: count, kind: nil, device: device(after: 3))
        case "cut":
            guard words.count > 4, let count = Int(words[1]), words[2] == "in", words[3] == "flight" else { return nil }
            return .cut(count: count, point: words[4], device: device(after: 5))
        case "lost":
            // A request's name has no space: the device is all after ` from `.
            guard words.count > 3, words[2] == "from" else { return nil }
            return .lost(request: words[1], device: words[3...].joined(separator: " "))
        default: return nil
        }
    }
}

extension String {
    /// The rest after `prefix`, or nil when it does not start with it.
    fileprivate func dropping(_ prefix: String) -> String? {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : nil
    }

    /// What comes before `suffix`, or nil when it does not end with it.
    fileprivate func dropping(suffix: String) -> String? {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : nil
    }
}

extension TrafficEntry.Kind {
    /// LEGACY: a `traffic.kind` written by v8 before a stream's end said who
    /// ended it (`{"closed":{"reason":…}}`, without `by`): who, from the
    /// reason the embedded network gave its cuts; or before the other
    /// side's calls were typed (`{"call":{"_0":"agentSay(c-1, \"Hi\")"}}`):
    /// the call from its rendering, or ``untyped(_:)``; or before a case's
    /// one value was keyed by the case's name (`{"answer":{"_0":{"ok":{}}}}`,
    /// ``LegacyPositionalKeys``).
    init?(legacyJSON json: String) {
        if let kind = Self(legacyTextJSON: json) {
            self = kind
        } else if let remade = LegacyPositionalKeys.remade(Data(json.utf8)), let kind = TapeCoding.decode(Self.self, from: remade) {
            self = kind
        } else {
            return nil
        }
    }

    /// LEGACY: a call kept as its rendering, or a close without who closed.
    private init?(legacyTextJSON json: String) {
        struct Call: Decodable {
            struct Rendering: Decodable {
                // swift-format-ignore: AlwaysUseLowerCamelCase
                var _0: String
            }
            var call: Rendering
        }
        if let old = TapeCoding.decode(Call.self, from: Data(json.utf8)) {
            self = TrafficEntry.Call(legacyRendering: old.call._0).map(Self.call) ?? .untyped(old.call._0)
            return
        }
        struct Closed: Decodable {
            struct Reason: Decodable {
                var reason: String
                var by: String?
            }
            var closed: Reason
        }
        // One that says who, but not in a way this version knows, is not read.
        guard let old = TapeCoding.decode(Closed.self, from: Data(json.utf8)), old.closed.by == nil else { return nil }
        self = .closed(reason: old.closed.reason, by: ClosedBy(legacyReason: old.closed.reason))
    }
}

extension ClosedBy {
    /// LEGACY: who ended a stream, for rows that kept only the reason: the
    /// embedded network's two cuts, else the server.
    init(legacyReason reason: String) {
        self = reason == "network offline" || reason == "connection dropped" ? .network : .server
    }
}

extension TrafficEntry.Call {
    /// LEGACY: a call of the other side from its rendering
    /// (`agentSay(c-1, "Hi")`), in rows written before calls were typed;
    /// nil when the call read does not render back the same.
    init?(legacyRendering text: String) {
        guard text.hasSuffix(")"), let open = text.firstIndex(of: "(") else { return nil }
        let inner = text[text.index(after: open)..<text.index(before: text.endIndex)]
        // The arguments, split at `, ` outside quotes.
        var parts: [String] = []
        var current = ""
        var quoted = false
        var escaped = false
        for character in inner {
            if quoted {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { quoted = false }
            } else if character == "\"" {
                quoted = true
            } else if character == " ", current.hasSuffix(",") {
                parts.append(String(current.dropLast()))
                current = ""
                continue
            }
            current.append(character)
        }
        if !current.isEmpty { parts.append(current) }
        let call = Self(String(text[..<open]), parts.map(TrafficEntry.Argument.init(legacyRendering:)))
        guard call.rendering == text else { return nil }
        self = call
    }
}

extension TrafficEntry.Argument {
    /// LEGACY: an argument from its rendering, by its look.
    init(legacyRendering text: String) {
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\""), let unquoted = Self.unescaped(text.dropFirst().dropLast()) {
            self = .text(unquoted)
        } else if let flag = Bool(text) {
            self = .flag(flag)
        } else if text.hasSuffix("ms"), let milliseconds = Int64(text.dropLast(2)) {
            self = .milliseconds(milliseconds)
        } else if let space = text.firstIndex(of: " "), let count = Int(text[..<space]),
            let digest = String(text[space...]).dropping(" bytes sha256:")
        {
            self = .bytes(count: count, sha256: digest)
        } else if let equals = text.firstIndex(of: "=") {
            self = .setting(key: String(text[..<equals]), value: String(text[text.index(after: equals)...]))
        } else {
            self = .word(text)
        }
    }

    /// The text Swift's `debugDescription` quoted (its escapes: `\"`,
    /// `\\`, `\n`, `\t`, `\r`, `\0`, `\'`, `\u{…}`); nil for an escape it has not.
    private static func unescaped(_ quoted: Substring) -> String? {
        var text = ""
        var characters = quoted.makeIterator()
        while let character = characters.next() {
            guard character == "\\" else {
                text.append(character)
                continue
            }
            switch characters.next() {
            case "\"": text.append("\"")
            case "\\": text.append("\\")
            case "\'": text.append("'")
            case "n": text.append("\n")
            case "t": text.append("\t")
            case "r": text.append("\r")
            case "0": text.append("\0")
            case "u":
                guard characters.next() == "{" else { return nil }
                var hex = ""
                while let digit = characters.next(), digit != "}" { hex.append(digit) }
                guard let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) else { return nil }
                text.unicodeScalars.append(scalar)
            default: return nil
            }
        }
        return text
    }
}
