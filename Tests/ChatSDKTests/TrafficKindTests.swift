import ChatCore
import Foundation
import Testing

@testable import ChatSDK

/// What a traffic entry is, typed from its producer (issue 30): its one
/// rendering, its JSON in the recording, its redaction, and the legacy
/// reader of the rows of files from before v8.
@Suite struct TrafficKindTests {
    typealias Kind = TrafficEntry.Kind

    /// Every kind, with the texts a naive writer gets wrong (quotes, line
    /// breaks, control characters, slashes, non-ASCII).
    static let kinds: [(kind: Kind, summary: String)] = [
        (
            .request(method: "GET", path: "/v1/conversations", query: ["limit": "20", "cursor": "a/b"]),
            "GET /v1/conversations?cursor=a/b&limit=20"
        ),
        (.request(method: "POST", path: "/v1/conversations/c-1/messages", query: [:]), "POST /v1/conversations/c-1/messages"),
        (.answer(.ok(response: "sent")), "ok sent"),
        (.answer(.ok(response: nil)), "ok"),
        (.answer(.rejected(code: "expiredToken")), "error expiredToken"),
        (.answer(.offline), "error offline"),
        (.answer(.failed), "error failed"),
        (.answer(.cancelled), "error cancelled"),
        (.open(afterUserSeq: 4), "open after=4"),
        (.open(afterUserSeq: nil), "open after=-"),
        (.close, "close"),
        (.ready, "ready"),
        (.refused(.rejected(code: "invalidToken")), "refused invalidToken"),
        (.refused(.offline), "refused offline"),
        (.event(seq: 5, name: "messageCreated"), "event #5 messageCreated"),
        (.closed(reason: "bye \"now\"\n\t\u{01}\\ é", by: .server), "closed: bye \"now\"\n\t\u{01}\\ é"),
        (.closed(reason: "network offline", by: .network), "closed: network offline"),
        (.closed(reason: "closed by the client", by: .client), "closed: closed by the client"),
        (.call(.init("agentSay", [.word("c-1"), .text("Hello, \"you\"\n")])), #"agentSay(c-1, "Hello, \"you\"\n")"#),
        (.call(.init("users")), "users()"),
        (
            .call(
                .init(
                    "x",
                    [.flag(true), .milliseconds(100), .setting(key: "k", value: "v=w"), .bytes(count: 69, sha256: "2e9b06dc65a4")])),
            "x(true, 100ms, k=v=w, 69 bytes sha256:2e9b06dc65a4)"
        ),
        (.fault(.offline(device: nil)), "offline"),
        (.fault(.offline(device: "device-1")), "offline device-1"),
        (.fault(.online(device: nil)), "online"),
        (.fault(.latency(milliseconds: 200, device: nil)), "latency 200ms"),
        (.fault(.latency(milliseconds: 200, device: "device-1")), "latency 200ms device-1"),
        (.fault(.failNext(count: 3, kind: nil, device: nil)), "fail next 3"),
        (.fault(.failNext(count: 1, kind: "timeout", device: "device-1")), "fail next 1 (timeout) device-1"),
        (.fault(.drop(device: nil)), "drop"),
        (.fault(.cut(count: 2, point: "after-commit", device: nil)), "cut 2 in flight after-commit"),
        (.fault(.cut(count: 1, point: "before-commit", device: "device-1")), "cut 1 in flight before-commit device-1"),
        (.fault(.restart(device: "device-alice")), "restart device-alice"),
        (.fault(.lost(request: "sendMessage", device: "x from y")), "lost sendMessage from x from y"),
        (.untyped("something old"), "something old"),
    ]

    @Test func eachKindRendersAsItsSummary() {
        for (kind, summary) in Self.kinds { #expect(kind.summary == summary) }
    }

    /// The recording's JSON is written by hand (no encoder on the hot
    /// path): byte for byte what the encoder writes, and read back.
    @Test func theHandWrittenJSONIsTheEncodersAndReadsBack() throws {
        for (kind, _) in Self.kinds {
            let encoded = try #require(TapeCoding.encode(kind))
            #expect(kind.json == String(decoding: encoded, as: UTF8.self))
            #expect(Kind(json: kind.json) == kind)
        }
        #expect(Kind(json: #"{"teleport":{}}"#) == nil)
    }

    /// Every value of a kind is under a key that names it: a case's one
    /// unlabelled value under the case's name (`{"answer":{"answer":…}}`),
    /// as in AppCall and AppEvent, never under Swift's positional `_0`.
    @Test func noValueOfAKindIsKeyedByPosition() throws {
        for (kind, _) in Self.kinds {
            #expect(!kind.json.contains(#""_0""#), "\(kind.json)")
            #expect(!String(decoding: try #require(TapeCoding.encode(kind)), as: UTF8.self).contains(#""_0""#))
        }
        #expect(Kind.answer(.offline).json == #"{"answer":{"answer":{"offline":{}}}}"#)
        #expect(Kind.untyped("x").json == #"{"untyped":{"untyped":"x"}}"#)
    }

    /// LEGACY: a kind written with its one value keyed by position (v8
    /// until the keys were named, as examples/field/support-ticket.sqlite
    /// has them) reads back as the same kind.
    @Test func kindsKeyedByPositionReadBack() {
        var read = 0
        for (kind, _) in Self.kinds {
            var json = kind.json
            for name in ["answer", "refused", "call", "fault", "untyped"] where json.hasPrefix(#"{"\#(name)":{"\#(name)":"#) {
                json = #"{"\#(name)":{"_0":"# + json.dropFirst(#"{"\#(name)":{"\#(name)":"#.count)
            }
            guard json != kind.json else { continue }
            read += 1
            #expect(Kind(json: json) == kind, "\(json)")
        }
        #expect(read == 24)
        #expect(Kind(json: #"{"answer":{"_0":{"ok":{"response":"sent"}}}}"#) == .answer(.ok(response: "sent")))
        #expect(
            Kind(json: #"{"fault":{"_0":{"lost":{"device":"device-alice","request":"sendMessage"}}}}"#)
                == .fault(.lost(request: "sendMessage", device: "device-alice")))
        #expect(Kind(json: #"{"answer":{"_0":{"teleport":{}}}}"#) == nil)
    }

    /// The rows of a file from before v8 are typed from their summaries,
    /// by their channel, direction and device.
    @Test func theLegacyReaderTypesOldRows() {
        func legacy(_ summary: String, _ channel: TrafficEntry.Channel, _ direction: TrafficEntry.Direction, _ device: String) -> Kind {
            Kind(legacySummary: summary, channel: channel, direction: direction, origin: TrafficEntry.Origin(legacyDeviceId: device))
        }
        #expect(
            legacy("GET /v1/conversations?cursor=x=y&limit=20", .http, .out, "d")
                == .request(method: "GET", path: "/v1/conversations", query: ["cursor": "x=y", "limit": "20"]))
        #expect(legacy("ok sent", .http, .in, "d") == .answer(.ok(response: "sent")))
        #expect(legacy("error offline", .http, .in, "d") == .answer(.offline))
        #expect(legacy("error expiredToken", .http, .in, "d") == .answer(.rejected(code: "expiredToken")))
        #expect(legacy("open after=-", .ws, .out, "d") == .open(afterUserSeq: nil))
        #expect(legacy("open after=4", .ws, .out, "d") == .open(afterUserSeq: 4))
        #expect(legacy("close", .ws, .out, "d") == .close)
        #expect(legacy("ready", .ws, .in, "d") == .ready)
        #expect(legacy("refused failed", .ws, .in, "d") == .refused(.failed))
        #expect(legacy("event #5 messageCreated", .ws, .in, "d") == .event(seq: 5, name: "messageCreated"))
        #expect(legacy("closed: event #5 x", .ws, .in, "d") == .closed(reason: "event #5 x", by: .server))
        // Who ended a stream, from the embedded network's two cuts.
        #expect(legacy("closed: network offline", .ws, .in, "d") == .closed(reason: "network offline", by: .network))
        #expect(legacy("closed: connection dropped", .ws, .in, "d") == .closed(reason: "connection dropped", by: .network))
        // The other side's calls, typed from their rendering; one that is
        // not a call shows as it was.
        for (kind, summary) in Self.kinds {
            guard case .call = kind else { continue }
            #expect(legacy(summary, .http, .out, "app-backend") == kind, "\(summary)")
        }
        #expect(
            legacy(#"agentSendAttachment(c-1, image, image/png, "a, b.png", 69 bytes sha256:2e9b06dc65a4)"#, .http, .out, "app-backend")
                == .call(
                    .init(
                        "agentSendAttachment",
                        [.word("c-1"), .word("image"), .word("image/png"), .text("a, b.png"), .bytes(count: 69, sha256: "2e9b06dc65a4")])))
        #expect(
            legacy("issueSessionToken(alice, default)", .http, .out, "app-backend")
                == .call(.init("issueSessionToken", [.word("alice"), .word("default")])))
        #expect(
            legacy(#"agentSay(c-1, "tab\there\u{7F}")"#, .http, .out, "app-backend")
                == .call(.init("agentSay", [.word("c-1"), .text("tab\there\u{7F}")])))
        #expect(legacy("GET /v1/x", .http, .out, "app-backend") == .untyped("GET /v1/x"))
        // A quote with an escape Swift does not write is kept as it was, a word.
        #expect(legacy(#"agentSay(c-1, "\q")"#, .http, .out, "app-backend") == .call(.init("agentSay", [.word("c-1"), .word(#""\q""#)])))
        #expect(legacy("ok", .http, .in, "app-backend") == .answer(.ok(response: nil)))
        #expect(legacy("error notFound", .http, .in, "app-backend") == .answer(.rejected(code: "notFound")))
        // The network's rows are faults.
        for (kind, summary) in Self.kinds {
            guard case .fault = kind else { continue }
            #expect(legacy(summary, .http, .out, "network") == kind, "\(summary)")
        }
        // What it cannot type shows as it was.
        #expect(legacy("teleport", .http, .out, "network") == .untyped("teleport"))
        #expect(legacy("hello", .ws, .in, "d") == .untyped("hello"))
        #expect(legacy("event #x y", .ws, .in, "d") == .untyped("event #x y"))
        // A query that would not render back the same stays as it was.
        #expect(legacy("GET /v1/x?b=1&a=2", .http, .out, "d") == .untyped("GET /v1/x?b=1&a=2"))
    }

    /// LEGACY: a v8 row typed before a stream's end said who ended it, or
    /// before the other side's calls were typed, reads back: its closer
    /// taken from the embedded network's reasons, its call from its text.
    @Test func v8KindsWrittenBeforeTheyWereTypedReadBack() {
        #expect(
            Kind(json: #"{"call":{"_0":"agentSay(c-1, \"Hi\")"}}"#) == .call(.init("agentSay", [.word("c-1"), .text("Hi")])))
        #expect(Kind(json: #"{"call":{"_0":"teleport"}}"#) == .untyped("teleport"))
        #expect(Kind(json: #"{"closed":{"reason":"network offline"}}"#) == .closed(reason: "network offline", by: .network))
        #expect(Kind(json: #"{"closed":{"reason":"connection dropped"}}"#) == .closed(reason: "connection dropped", by: .network))
        #expect(Kind(json: #"{"closed":{"reason":"sessionWasClosed"}}"#) == .closed(reason: "sessionWasClosed", by: .server))
        #expect(Kind(json: #"{"closed":{"by":"client","reason":"x"}}"#) == .closed(reason: "x", by: .client))
        #expect(Kind(json: #"{"closed":{"by":"teleport","reason":"x"}}"#) == nil)
    }

    /// Each text of a kind is redacted as the summary was as one line: the
    /// same text and the same placeholders.
    @Test func aKindIsRedactedAsItsSummaryWas() {
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhIn0.c2lnbmF0dXJl"
        let kinds: [Kind] = [
            .closed(reason: "token at_0123456789 then rt_9876543210 and \(jwt)", by: .server),
            .call(.init("agentSay", [.word("c-1"), .text("at_0123456789 st_5555555555"), .setting(key: "k", value: "rt_3333333333")])),
            .request(method: "GET", path: "/v1/x/at_0123456789", query: ["a": "rt_1111111111", "b": "rt_2222222222"]),
            .answer(.rejected(code: "at_7777777777")),
            .fault(.lost(request: "sendMessage", device: "at_8888888888")),
            .event(seq: 3, name: "typing"),
        ]
        for kind in kinds {
            let byText = Redactor()
            let byKind = Redactor()
            #expect(kind.redacted(byKind.redact).summary == byText.redact(kind.summary))
        }
    }
}
