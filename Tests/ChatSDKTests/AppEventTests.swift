import Foundation
import Testing

@testable import ChatSDK

/// The events a replay or an export reads, as values (issue 30): each goes
/// to JSON and back unchanged, and its text is what the recorder wrote
/// before it had values.
@Suite struct AppEventTests {
    static let cases: [(AppEvent, String, String)] = [
        (.returned(call: "sendMessage", value: .message(id: "m-1", state: .toBeSent)), "call", "call: sendMessage returned m-1 toBeSent"),
        (.returned(call: "startConversation", value: .conversation(id: "c-1")), "call", "call: startConversation returned c-1"),
        (.returned(call: "loginAnonymous", value: .user(id: "u-1")), "call", "call: loginAnonymous returned u-1"),
        (.returned(call: "authorize", value: .warnings(["a", "b"])), "call", "call: authorize returned warnings: a; b"),
        (.returned(call: "authorize", value: .warnings([])), "call", "call: authorize returned"),
        (.returned(call: "setCurrentUser", value: .nothing), "call", "call: setCurrentUser returned"),
        (
            .threw(call: "setCurrentUser", code: "currentUserAlreadySet", message: "alice is set"), "call",
            "call: setCurrentUser threw currentUserAlreadySet: alice is set"
        ),
        (.threw(call: "logout", code: nil, message: "cancelled"), "call", "call: logout threw cancelled"),
        (.message(id: "m-1", state: .sent, content: .text("hi")), "m-1:", #"m-1: sent "hi""#),
        (.message(id: "m-3", state: .failed, error: "offline", content: .text("x")), "m-3:", #"m-3: failed(offline) "x""#),
        (
            .returned(call: "retrySending", value: .message(id: "m-3", state: .failed, error: "forbidden")), "call",
            "call: retrySending returned m-3 failed(forbidden)"
        ),
        (
            .message(id: "m-2", state: .sending, content: .attachment(kind: "image", mime: "image/png", bytes: 2048)), "m-2:",
            "m-2: sending [image image/png 2048 bytes]"
        ),
        (.session(state: .userSet(userId: "alice")), "client.session", "client.session userSet(alice)"),
        (
            .session(state: .authenticated(userId: "alice", via: "tokens")), "client.session",
            "client.session authenticated(alice, via: tokens)"
        ),
        (.connection(state: .connecting), "client.connection", "client.connection connecting"),
        (.connection(state: .waitingForNetwork(reason: .offline)), "client.connection", "client.connection waitingForNetwork(offline)"),
        (
            .connection(state: .waitingForNetwork(reason: .closedByServer(reason: "connection dropped"))), "client.connection",
            "client.connection waitingForNetwork(closedByServer(connection dropped))"
        ),
        (.warning(text: "The disk cache is unavailable"), "warning", "warning: The disk cache is unavailable"),
        (.authentication(event: .failed(code: "invalidToken")), "client.auth", "client.auth failed invalidToken"),
        (.authentication(event: .sessionRefreshed), "client.auth", "client.auth session refreshed"),
        (.authentication(event: .sessionClosed), "client.auth", "client.auth session closed"),
        (.authentication(event: .sessionError(code: "network")), "client.auth", "client.auth session error network"),
        (
            .emission(watcher: 0, shown: .items(count: 0, hasMore: false, first: []), fresh: false, refreshing: .refreshing), "w1",
            "w1: 0 items, cached, refreshing"
        ),
        (
            .emission(
                watcher: 0,
                shown: .items(count: 2, hasMore: true, first: [.init(id: "m-2", state: .sending), .init(id: "m-1", state: .sent)]),
                fresh: false, refreshing: .refreshing), "w1",
            "w1: 2 items and more (m-2 sending, m-1 sent), cached, refreshing"
        ),
        (
            .emission(
                watcher: 3,
                shown: .items(
                    count: 4, hasMore: false,
                    first: [
                        .init(id: "m-4", state: .sent), .init(id: "m-3", state: .sent),
                        .init(id: "m-2", state: .failed, error: "network"),
                    ]),
                fresh: true, refreshing: .refreshed), "w4",
            "w4: 4 items (m-4 sent, m-3 sent, m-2 failed(network), …), fresh, refreshed"
        ),
        (
            .emission(watcher: 1, shown: .conversations(count: 1, hasMore: true), fresh: true, refreshing: .refreshed), "w2",
            "w2: 1 conversation and more, fresh, refreshed"
        ),
        (
            .emission(watcher: 2, shown: .conversation(id: "c-1"), fresh: false, refreshing: .failed), "w3",
            "w3: conversation c-1, cached, failed"
        ),
        (.watcherEnded(watcher: 0, reason: "clientClosed"), "w1", "w1 ended: clientClosed"),
        (.watcherEnded(watcher: nil, reason: "notFound"), "watcher", "watcher ended: notFound"),
    ]

    @Test(arguments: cases.indices)
    func roundTripsAndRendersAsBefore(_ index: Int) throws {
        let (event, source, text) = Self.cases[index]
        #expect(event.source == source)
        #expect(event.text == text)
        let json = try #require(event.json)
        #expect(AppEvent(json: json) == event, "\(json)")
    }

    /// The session's and the connection's states read as the SDK's own
    /// `description` does, for every state.
    @Test func statesRenderAsTheSDKDoes() {
        let sessions: [SessionState] = [
            .signedOut, .userSet(userId: "a"), .authenticating(userId: "a"), .authenticated(userId: "a", via: .jwt),
            .refreshing(userId: "a"), .needsCredentials(userId: "a", reason: "expired"), .closed(reason: "logout"),
        ]
        for state in sessions { #expect(AppEvent.Session(state).text == state.description) }
        let connections: [ConnectionState] = [
            .disconnected, .connecting, .connected, .waitingForNetwork(.offline), .waitingForNetwork(.backoff(attempt: 3)),
            .waitingForNetwork(.closedByServer("tokens revoked")),
        ]
        for state in connections { #expect(AppEvent.Connection(state).text == state.description) }
    }

    /// Every value in the JSON is under a key that names it: none is `_0`
    /// (issue 30 §6).
    @Test func noValueIsKeyedByItsPosition() throws {
        for (event, _, _) in Self.cases { #expect(try #require(event.json).contains("\"_0\"") == false, "\(event.json ?? "")") }
        for (call, _) in AppCallTests.cases { #expect(try #require(call.json).contains("\"_0\"") == false, "\(call.json ?? "")") }
        let text = try #require(AppEvent.message(id: "m-1", state: .sent, content: .text("hi")).json)
        #expect(text == #"{"message":{"content":{"text":{"text":"hi"}},"id":"m-1","state":"sent"}}"#)
    }

    /// What the first v6 and v7 builds wrote, a case's one value keyed
    /// `_0`, still reads (written here as they wrote it).
    @Test func valuesKeyedByPositionStillRead() {
        #expect(
            AppEvent(json: #"{"message":{"content":{"text":{"_0":"hi"}},"id":"m-1","state":"sent"}}"#)
                == .message(id: "m-1", state: .sent, content: .text("hi")))
        #expect(
            AppEvent(json: #"{"returned":{"call":"authorize","value":{"warnings":{"_0":["a","b"]}}}}"#)
                == .returned(call: "authorize", value: .warnings(["a", "b"])))
        #expect(
            AppCall(json: #"{"sendMessage":{"content":{"text":{"_0":"say \"_0\""}},"conversation":"c-1"}}"#)
                == .sendMessage(content: .text(#"say "_0""#), replyingTo: nil, conversation: "c-1"))
        #expect(
            AppCall(json: #"{"connect":{"credential":{"accessToken":{"_0":"<secret#2>"}},"userId":"bob"}}"#)
                == .connect(userId: "bob", credential: .accessToken("<secret#2>")))
        #expect(AppEvent(json: #"{"message":{"content":{"text":{"_1":"hi"}},"id":"m-1","state":"sent"}}"#) == nil)
    }
}
