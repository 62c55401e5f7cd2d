import Foundation
import Testing

@testable import Workbench

/// The transcript tells the truth: time moves only as asked, waits end,
/// states are the SDK's own.
@Suite struct TimeAndTruthTests {
    @Test func settleDoesNotLetALifecycleTimerFire() throws {
        let (_, results) = try run([
            "login jwt eve --exp 10m", "start conversation", "send c1 text hi",
            "settle", "expect client.session == authenticated",
            "agent typing c1 on", "settle", "expect c1.providerTyping == true",
        ])
        #expect(results[3].output == "settled after 0s\n")
        #expect(results.allSatisfy { $0.status == .ok }, "\(results.map(\.output))")
    }

    @Test func settleSaysHowFarAndWhyAfterABackOff() throws {
        let (_, results) = try run(["user set alice", "watch conversations", "net drop", "settle"])
        let settle = results[3].output
        #expect(settle.hasSuffix(": reconnect after back-off\n"), "\(settle)")
        #expect(settle.contains("client.connection → connected"))
    }

    @Test func aWaitThatCannotHappenGivesUpWithinItsBound() throws {
        let (session, results) = try run(["user set alice", "watch conversations", "wait w1 emits 5 --within 2h"])
        let wait = results[2]
        #expect(wait.status == .expectFailed)
        #expect(session.exitStatus == 1)
        // The token refreshes of those two hours come first, then the verdict.
        let lines = wait.output.split(separator: "\n")
        #expect(lines.last == "wait failed: gave up waiting for w1 to emit 5 times after 2h", "\(wait.output)")
        #expect(lines.dropLast().contains { $0.contains("client.session → refreshing(alice)") })
    }

    @Test func aWaitWithoutBoundStopsAfterAnHour() throws {
        let (_, results) = try run(["user set alice", "watch conversations", "wait w1 emits 5", "clock.elapsed"])
        #expect(results[2].status == .expectFailed)
        #expect(results[3].output.hasPrefix("\"1h0."), "\(results[3].output)")
    }

    @Test func timersListTheirKindAndPurpose() throws {
        let (_, results) = try run(["login jwt eve --exp 10m", "clock.timers"])
        #expect(results[1].output.contains("lifecycle: refresh eve's tokens"), "\(results[1].output)")
    }

    @Test func aYearOfRefreshesFoldsIntoAFewLines() throws {
        let (_, results) = try run(["user set alice", "watch conversations", "clock advance 365d"])
        let lines = results[2].output.split(separator: "\n")
        #expect(lines.count < 10, "\(lines.count) lines")
        #expect(
            lines.contains {
                $0.contains("more times: client.session → refreshing(alice) · client.session → authenticated(alice, via: tokens)")
            })
        #expect(lines.contains { $0.contains("[364d ") || $0.contains("[365d ") })
    }

    @Test func aFailedAuthorizeLeavesTheClientAsTheSDKSeesIt() throws {
        let (_, results) = try run(["authorize bob --token wrong", "client.user", "connect carol"])
        // What inspection shows is what the SDK acts on: bob is still set.
        #expect(results[1].output == "\"bob\"\n", "\(results.map(\.output))")
        #expect(results[2].output.contains("currentUserAlreadySet") || results[2].output.contains("bob"), "\(results[2].output)")
    }

    @Test func aSecondDeviceOpensAConversationByItsID() throws {
        let (_, results) = try run([
            "client new phone", "use phone", "user set tia", "start conversation", "send c1 text hi",
            "client new tablet", "use tablet", "user set tia", "watch items c1", "expect w1.count == 1",
        ])
        #expect(results.allSatisfy { $0.status == .ok }, "\(results.map(\.output))")
    }

    @Test func aResendAfterAFailureDoesNotRefreshValidTokens() throws {
        let (_, results) = try run([
            "user set alice", "start conversation", "send c1 text one", "net fail 1", "send c1 text two", "settle",
            "expect m2.state == sent",
        ])
        #expect(!results[5].output.contains("refreshing"), "\(results[5].output)")
        #expect(results[6].status == .ok, "\(results[6].output)")
    }
}

/// Every example shows only states a message can enter, in an order the
/// SDK allows: no phantom `toBeSent` after `sending`.
@Suite struct MessageStateTransitionTests {
    static let allowed: [String: Set<String>] = [
        "start": ["toBeSent", "failed"],
        "toBeSent": ["sending", "failed"],
        "sending": ["sent", "failed"],
        "failed": ["toBeSent"],
        "sent": [],
    ]

    /// `sending → toBeSent` is a real transition only when the send was
    /// cut off: the device went offline or the app was killed meanwhile, its
    /// request failed on the way (`net fail`), which is retryable (D7), or
    /// its answer was lost (`net drop --in-flight`, examples/68), or the
    /// token provider could not reach the app's backend, a network failure
    /// too (`provider unreachable`, examples/74).
    static func cutOff(_ between: Substring, before: Substring) -> Bool {
        between.contains("waitingForNetwork(offline)") || between.contains("network offline") || between.contains("restarted")
            || between.contains("→ answer lost (") || before.contains("\n> net fail ")
            || between.contains("provider: asked for tokens of ") && between.contains(" (unreachable)\n")
    }

    /// The message states an example prints, with where each line starts.
    static func states(in text: String) -> [(handle: String, state: String, at: String.Index)] {
        let pattern = try! NSRegularExpression(
            pattern: #"^  \[[^\]]+\] (\w+): (toBeSent|sending|sent|failed)\b"#, options: .anchorsMatchLines)
        let range = NSRange(text.startIndex..., in: text)
        return pattern.matches(in: text, range: range).map { match in
            (
                String(text[Range(match.range(at: 1), in: text)!]), String(text[Range(match.range(at: 2), in: text)!]),
                Range(match.range, in: text)!.lowerBound
            )
        }
    }

    static func violations(in text: String) -> [String] {
        var last: [String: (state: String, at: String.Index)] = [:]
        var found: [String] = []
        for (handle, state, at) in states(in: text) {
            let from = last[handle] ?? ("start", text.startIndex)
            let legal =
                allowed[from.state]?.contains(state) == true
                || (from.state == "sending" && state == "toBeSent" && cutOff(text[from.at..<at], before: text[..<at]))
            if !legal { found.append("\(handle) went \(from.state) → \(state)") }
            last[handle] = (state, at)
        }
        return found
    }

    @Test(arguments: ExamplesTests.files)
    func statesFollowTheAllowedTransitions(path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(Self.violations(in: text).isEmpty, "\(path): \(Self.violations(in: text))")
    }

    @Test func thePhantomOfTheOldSendingExampleIsCaught() {
        let phantom = """
              [00:00:00.000] m1: toBeSent
              [00:00:00.000] m1: sending
              [00:00:00.000] m1: toBeSent
              [00:00:00.000] client.session → authenticated(alice, via: tokens)
              [00:00:00.000] m1: sending

            """
        #expect(Self.violations(in: phantom) == ["m1 went sending → toBeSent"])
        let offline = """
              [00:00:00.000] m1: toBeSent
              [00:00:00.000] m1: sending
              [00:00:00.010] client.connection → waitingForNetwork(offline)
              [00:00:00.010] m1: toBeSent

            """
        #expect(Self.violations(in: offline).isEmpty)
    }
}
