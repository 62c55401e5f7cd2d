import ChatSDK
import Testing

@testable import Workbench

/// Invariants 3 (second half) and 4 of `chatbench explore`: a watcher shows
/// only its user's data, states change only as allowed, and a user who
/// signed out leaves nothing on the client.
@Suite struct IsolationInvariantTests {
    static let twoUsers = [
        "client new phone", "use phone", "user set bob", "start conversation", "send c1 text from-bob",
        "use client", "user set alice", "start conversation", "send c2 text from-alice", "watch conversations", "watch items c2", "settle",
    ]

    func invariants(_ session: WorkbenchSession, _ invariant: Invariant) -> [Violation] {
        session.violations().filter { $0.invariant == invariant }
    }

    @Test func watchersOfSeveralUsersAndClientsShowOnlyTheirOwn() throws {
        let (session, results) = try run(Self.twoUsers + ["use phone", "watch conversations", "settle"])
        #expect(results.allSatisfy { $0.status == .ok }, "\(results.map(\.output))")
        #expect(session.violations().isEmpty, "\(session.violations())")
    }

    /// Two users' conversations under the same app-chosen id: the server
    /// knows the second by an id of its own, and the checks compare by the
    /// server's ids (examples/33-conversation-ids.chat under explore).
    @Test func conversationsUnderTheSameAppIdAreEachTheirUsers() throws {
        let (session, results) = try run([
            "user set mallory", "start conversation --id c-visit", "send c1 text squat", "settle",
            "client new phone", "use phone", "user set alice", "start conversation --id c-visit", "send c2 text hello",
            "watch items c2", "watch conversations", "agent say c2 hi", "settle",
        ])
        #expect(results.allSatisfy { $0.status == .ok }, "\(results.map(\.output))")
        #expect(session.violations().isEmpty, "\(session.violations())")
    }

    /// The same, when the second conversation never reached the server:
    /// its id names the first user's conversation there, yet it is the
    /// second client's own (explore, examples/33, run 13).
    @Test func aLocalConversationUnderAnotherUsersIdIsItsClients() throws {
        let (session, results) = try run([
            "user set mallory", "start conversation --id c-visit", "send c1 text squat", "settle",
            "client new phone", "use phone", "user set alice", "provider fail", "start conversation --id c-visit",
            "send c2 text hello", "watch items c2", "settle",
        ])
        #expect(results.allSatisfy { $0.status == .ok }, "\(results.map(\.output))")
        #expect(session.violations().isEmpty, "\(session.violations())")
    }

    /// The agent cannot speak in a conversation that has not reached the
    /// server while another user's holds its id there: it spoke in that
    /// user's, which the workbench showed as the first's (explore,
    /// examples/45, run 83: alice's watcher "showed" bob's message).
    @Test func theAgentDoesNotSpeakInAnotherUsersConversationUnderTheSameId() throws {
        let (session, results) = try run([
            "user set bob", "net fail 2 --kind refused", "start conversation --id café", "send c1 text bob",
            "client new phone2", "user set alice", "start conversation --id café", "send c2 text alice", "alice_w = watch items c2",
            "agent say c1 \"for bob only\"", "net online", "settle",
        ])
        let say = try #require(results.dropLast(2).last)
        #expect(say.status == .scriptError)
        #expect(
            say.output
                == "script error: c1 is not on the server yet, and the server's café is another user's conversation: "
                + "the agent cannot speak in it\n", "\(say.output)")
        #expect(session.violations().isEmpty, "\(session.violations())")
        // Once bob's conversation is on the server, under an id of its own, the agent speaks in it.
        #expect(session.execute("agent say c1 \"for bob only\"").status == .ok)
        #expect(session.violations().isEmpty, "\(session.violations())")
    }

    /// A client of another app is checked in its app: ids are per app, so
    /// its c-visit is not the demo app's (explore, examples/66, run 0: "m2
    /// is sent but on the server 0 times").
    @Test func aClientOfAnotherAppIsCheckedInItsApp() throws {
        let (session, results) = try run([
            "user set alice", "start conversation --id c-visit", "server app new second-app", "client new other --api-key second-app",
            "user set alice", "start conversation --id c-visit", "send c2 text \"from the second app\"", "watch items c2", "settle",
        ])
        #expect(results.allSatisfy { $0.status == .ok }, "\(results.map(\.output))")
        #expect(session.violations().isEmpty, "\(session.violations())")
    }

    /// A message the app had not sent when its process went (a restart
    /// with the outbox in memory or in a cache made garbage), or when it
    /// shut its client down (it waits for the next launch), is neither sent
    /// nor failed after the heal, and that is no loss of the SDK's
    /// (explore, examples/44 run 24 and examples/65 runs 18 and 110: "m1 is
    /// still toBeSent after the world healed").
    @Test(arguments: [
        ["client new app --cache memory", "user set alice", "start conversation", "net offline", "send c1 text hi", "app restart"],
        ["user set alice", "net fail 2 --kind offline", "start conversation", "send c1 text hi", "app restart --corrupt-cache"],
        ["user set alice", "start conversation", "net offline", "send c1 text hi", "app shutdown"],
    ])
    func aMessageThatWentWithItsProcessIsNoLoss(_ lines: [String]) throws {
        let (session, _) = try run(lines + FaultSchedule.heal)
        #expect(session.violations().isEmpty, "\(session.violations())")
    }

    /// Kept on disk, it is sent after a plain restart: the check still holds there.
    @Test func aMessageInADiskOutboxIsSentAfterARestart() throws {
        let (session, _) = try run(
            ["user set alice", "start conversation", "net offline", "send c1 text hi", "app restart"] + FaultSchedule.heal)
        #expect(session.violations().isEmpty, "\(session.violations())")
        let m1 = try #require(session.interpreter.objects["m1"] as? MessageObject)
        #expect(m1.latest?.state == .sent)
        #expect(m1.client.lostWithARestart.isEmpty)
    }

    @Test func aWatcherShowingAnotherUsersConversationIsCaught() throws {
        let (session, _) = try run(Self.twoUsers)
        let w1 = try #require(session.interpreter.objects["w1"] as? WatcherObject)
        w1.elements.append("c1")
        #expect(invariants(session, .ownData).map(\.detail) == ["w1 on client (user alice) shows c1, not theirs"])
    }

    @Test func aWatcherShowingAnotherClientsUnsentMessageIsCaught() throws {
        let (session, _) = try run(Self.twoUsers + ["use phone", "net offline", "send c1 text unsent", "use client"])
        let w2 = try #require(session.interpreter.objects["w2"] as? WatcherObject)
        let unsent = try #require(
            session.interpreter.objects.values.compactMap { $0 as? MessageObject }.first { $0.latest?.state != .sent })
        w2.elements.insert(unsent.handle, at: 0)
        #expect(invariants(session, .ownData).map(\.detail) == ["w2 on client (user alice) shows \(unsent.handle), not theirs"])
    }

    @Test func theAllowedTransitionsPassAndOthersAreCaught() {
        let normal: [SessionState] = [
            .userSet(userId: "a"), .authenticating(userId: "a"), .authenticated(userId: "a", via: .tokens), .refreshing(userId: "a"),
            .authenticated(userId: "a", via: .tokens), .closed(reason: "revoked"), .signedOut,
        ]
        let connections: [ConnectionState] = [
            .connecting, .connected, .waitingForNetwork(.backoff(attempt: 1)), .waitingForNetwork(.offline), .connecting, .connected,
            .disconnected,
        ]
        #expect(StateTransitions.violations(sessions: normal, connections: connections, client: "client").isEmpty)
        #expect(
            StateTransitions.violations(
                sessions: [.userSet(userId: "a"), .closed(reason: "x"), .authenticating(userId: "a")], connections: [.connected],
                client: "phone")
                == [
                    "phone.session went closed → authenticating (closed(x) → authenticating(a))",
                    "phone.connection went disconnected → connected (disconnected → connected)",
                ])
    }

    @Test func aClientsAuditReachesTheInvariants() throws {
        let (session, _) = try run(["user set alice", "watch conversations", "settle"])
        #expect(invariants(session, .transitions).isEmpty)
        let client = try #require(session.interpreter.clients.first)
        client.audit.saw(ConnectionState.disconnected, client: "client")
        client.audit.saw(ConnectionState.connected, client: "client")
        #expect(
            invariants(session, .transitions).map(\.detail) == [
                "client.connection went disconnected → connected (disconnected → connected)"
            ])
    }

    @Test func aSignedOutUserLeavesNothing() throws {
        let (session, results) = try run([
            "user set alice", "start conversation", "send c1 text hi", "watch items c1", "net offline", "send c1 text pending",
            "user clear",
            "net online", "user set bob", "start conversation", "send c2 text from-bob", "settle",
        ])
        #expect(results.allSatisfy { $0.status == .ok }, "\(results.map(\.output))")
        #expect(session.interpreter.clients[0].pastUsers == ["alice"])
        #expect(session.violations().isEmpty, "\(session.violations())")
    }

    @Test func aWatcherOfTheUserBeforeThatStillShowsDataIsCaught() throws {
        let (session, _) = try run(["user set alice", "start conversation", "send c1 text hi", "watch items c1", "settle", "user clear"])
        let w1 = try #require(session.interpreter.objects["w1"] as? WatcherObject)
        #expect(w1.state == .ended)
        w1.state = .live(.refreshed)
        w1.elements = ["m1"]
        #expect(
            invariants(session, .signedOutKeepsNothing).map(\.detail) == ["w1 opened for alice still shows 1 items on client (user none)"])
    }

    @Test func dataOfAPastUserReadableThroughTheClientIsCaught() throws {
        let (session, _) = try run(["user set alice", "start conversation", "send c1 text hi", "settle"])
        // As if the SDK had kept alice's cache when the user became zed.
        let client = session.interpreter.clients[0]
        client.pastUsers = ["alice"]
        client.userId = "zed"
        #expect(invariants(session, .signedOutKeepsNothing).map(\.detail) == ["client (user zed) still holds c1, m1 of alice"])
    }
    /// Ids are per app (issue 26): the demo app's alice owns `c-x` and the
    /// second app's bob has a `c-x` of his own. Each client's watchers are
    /// checked against its own app's users and conversations, not the demo
    /// app's (which would call bob's `c-x` alice's).
    @Test func ownershipIsReadInEachClientsOwnApp() throws {
        let (session, results) = try run([
            "user set alice", "start conversation --id c-x", "send c1 text from-alice", "settle",
            "server app new second-app", "client new other --api-key second-app", "user set bob", "start conversation --id c-x",
            "send c2 text from-bob", "watch conversations", "watch items c2", "settle",
        ])
        #expect(results.allSatisfy { $0.status == .ok }, "\(results.map(\.output))")
        #expect(session.violations().isEmpty, "\(session.violations())")
    }

    /// A past user of the second app is looked up there: bob of the second
    /// app signed out and his `c-x` is caught if the client still reads it,
    /// though the demo app's `c-x` is alice's.
    @Test func dataOfAPastUserOfAnotherAppIsCaught() throws {
        let (session, _) = try run([
            "user set alice", "start conversation --id c-x", "send c1 text from-alice", "settle",
            "server app new second-app", "client new other --api-key second-app", "user set bob", "start conversation --id c-x",
            "send c2 text from-bob", "settle",
        ])
        // As if the SDK had kept bob's cache when the user became zed.
        let other = try #require(session.interpreter.clients.first { $0.name == "other" })
        other.pastUsers = ["bob"]
        other.userId = "zed"
        #expect(invariants(session, .signedOutKeepsNothing).map(\.detail) == ["other (user zed) still holds c2, m2 of bob"])
    }
}
