import Foundation
import Testing

@testable import ChatSDK

/// A message's send state in a recorded event is ``SendState/Kind`` with
/// a failed one's error code beside it (issue 25): written as the state's
/// name, the same JSON as when it was a string, and read back as the enum,
/// also from the files of the builds that wrote `failed(offline)`.
@Suite struct AppEventSendStateTests {
    /// Every state in every place an event keeps one: the message's event,
    /// a call's returned message and an items watcher's shown messages.
    static func events(_ kind: SendState.Kind, error: String?) -> [AppEvent] {
        [
            .message(id: "m-1", state: kind, error: error, content: .text("hi")),
            .returned(call: "sendMessage", value: .message(id: "m-1", state: kind, error: error)),
            .emission(
                watcher: 0, shown: .items(count: 1, hasMore: false, first: [.init(id: "m-1", state: kind, error: error)]), fresh: true,
                refreshing: .refreshed),
        ]
    }

    /// Each kind is written as its name, the text the string was, and is
    /// read back as the same kind.
    @Test(arguments: SendState.Kind.allCases)
    func everyKindRoundTripsAsItsName(_ kind: SendState.Kind) throws {
        let error = kind == .failed ? "offline" : nil
        for event in Self.events(kind, error: error) {
            let json = try #require(event.json)
            #expect(json.contains(#""state":"\#(kind.rawValue)""#), "\(json)")
            #expect(AppEvent(json: json) == event, "\(json)")
        }
        let encoded = try JSONEncoder().encode([kind])
        #expect(String(decoding: encoded, as: UTF8.self) == #"["\#(kind.rawValue)"]"#)
        #expect(try JSONDecoder().decode([SendState.Kind].self, from: encoded) == [kind])
    }

    /// The JSON is byte for byte what the builds that kept a string wrote.
    @Test func theJSONIsWhatTheStringMade() throws {
        #expect(
            AppEvent.message(id: "m-3", state: .failed, error: "offline", content: .text("x")).json
                == #"{"message":{"content":{"text":{"text":"x"}},"error":"offline","id":"m-3","state":"failed"}}"#)
        #expect(
            AppEvent.returned(call: "sendMessage", value: .message(id: "m-1", state: .toBeSent)).json
                == #"{"returned":{"call":"sendMessage","value":{"message":{"id":"m-1","state":"toBeSent"}}}}"#)
        let shown = AppEvent.Shown.items(count: 1, hasMore: false, first: [.init(id: "m-2", state: .sending)])
        #expect(
            try #require(AppEvent.emission(watcher: 0, shown: shown, fresh: true, refreshing: .refreshed).json).contains(
                #"{"id":"m-2","state":"sending"}"#))
    }

    /// LEGACY: the first v7 builds wrote a failed message's state as
    /// `SendState` renders it, `failed(offline)`, with no error beside it.
    /// It reads as `.failed` with the code `offline`, and renders the line
    /// it rendered then.
    @Test func aFailedStateWithItsCodeInItsTextReadsAsFailedAndTheCode() {
        let message = AppEvent(json: #"{"message":{"content":{"text":{"text":"x"}},"id":"m-3","state":"failed(offline)"}}"#)
        #expect(message == .message(id: "m-3", state: .failed, error: "offline", content: .text("x")))
        #expect(message?.text == #"m-3: failed(offline) "x""#)
        let returned = AppEvent(json: #"{"returned":{"call":"retrySending","value":{"message":{"id":"m-3","state":"failed(forbidden)"}}}}"#)
        #expect(returned == .returned(call: "retrySending", value: .message(id: "m-3", state: .failed, error: "forbidden")))
        let emission = AppEvent(
            json:
                #"{"emission":{"fresh":true,"refreshing":"refreshed","shown":{"items":{"count":2,"first":[{"id":"m-2","state":"failed(network)"},{"id":"m-1","state":"sent"}],"hasMore":false}},"watcher":0}}"#
        )
        #expect(
            emission
                == .emission(
                    watcher: 0,
                    shown: .items(
                        count: 2, hasMore: false,
                        first: [.init(id: "m-2", state: .failed, error: "network"), .init(id: "m-1", state: .sent)]),
                    fresh: true, refreshing: .refreshed))
        #expect(emission?.text == "w1: 2 items (m-2 failed(network), m-1 sent), fresh, refreshed")
    }

    /// LEGACY: a value with both of the earlier builds' habits, a key by
    /// position and a failed state with its code, reads too.
    @Test func aPositionalKeyAndAFailedStateWithItsCodeReadTogether() {
        #expect(
            AppEvent(json: #"{"message":{"content":{"text":{"_0":"x"}},"id":"m-3","state":"failed(offline)"}}"#)
                == .message(id: "m-3", state: .failed, error: "offline", content: .text("x")))
    }

    /// A state is one of the kinds: a text that is none is no event, not
    /// a state nobody decides on.
    @Test func aStateThatIsNoKindIsNotRead() {
        #expect(AppEvent(json: #"{"message":{"content":{"text":{"text":"x"}},"id":"m-1","state":"lost"}}"#) == nil)
        #expect(AppEvent(json: #"{"message":{"content":{"text":{"text":"x"}},"id":"m-1","state":"sent(offline)"}}"#) == nil)
        #expect(AppEvent(json: #"{"message":{"content":{"text":{"text":"x"}},"id":"m-1","state":"failed()"}}"#) == nil)
    }

    /// The one reader of a state as text: a kind's name, or `failed(CODE)`.
    @Test func theLegacyReaderOfAStatesText() {
        for kind in SendState.Kind.allCases {
            #expect(SendState.Kind.legacy(kind.rawValue).map { "\($0.kind) \($0.error ?? "-")" } == "\(kind) -")
        }
        #expect(SendState.Kind.legacy("failed(offline)").map { "\($0.kind) \($0.error ?? "-")" } == "failed offline")
        for text in ["", "Sent", "failed(", "failed()", "failed(a b)", "sending(offline)", "failed(offline) "] {
            #expect(SendState.Kind.legacy(text) == nil, "\(text)")
        }
    }
}
