import ChatServer
import ChatTestSupport
import Foundation
import Testing

@testable import Workbench

/// The values the client and the server mint, known to the session by what
/// they are (issue 30): how a run against a server is compared with the
/// embedded world's, and what a server session's export writes as `[..]`.
@Suite struct MintedValuesTests {
    @Test func aValueIsFoundWhereItStandsAloneAndTheLongerWins() {
        var values = MintedValues(isKept: true)
        values.learn("c-1", as: "c1.id")
        values.learn("c-1a", as: "c2.id")
        values.learn("c-1", as: "c9.id")
        #expect(values.name(of: "c-1") == "c1.id", "a value keeps its first name")
        #expect(values.naming(in: "c-1, c-1a, c-12, xc-1, c-1.") == "<c1.id>, <c2.id>, c-12, xc-1, <c1.id>.")
        #expect(values.occurrences(in: "é c-1a").map(\.range) == [3..<7], "UTF-8 offsets")
    }

    @Test func aNameGivenTwiceIsNumbered() {
        var values = MintedValues(isKept: true)
        values.learn("anon-1", as: "client.user")
        values.learn("anon-2", as: "client.user")
        values.learn("anon-3", as: "client.user")
        #expect(values.naming(in: "anon-1 anon-2 anon-3") == "<client.user> <client.user#2> <client.user#3>")
    }

    @Test func nothingIsKeptUnlessAsked() {
        var values = MintedValues()
        values.learn("c-1", as: "c1.id")
        #expect(values.entries.isEmpty && values.naming(in: "c-1") == "c-1")
    }

    /// What the session learns: the ids the SDK and the server minted, an
    /// anonymous user's, an uploaded picture's URL (and a conversation's id
    /// on the server where it differs); never an id the script named. Nothing in a session that
    /// does not keep them (the embedded world's own runs).
    @Test func aSessionLearnsWhatWasMintedInIt() throws {
        let lines = [
            "login anonymous", "start conversation", "send c1 text \"hi\"", "start conversation --id c-visit",
            "profile --image-size 2000 --type png",
        ]
        let session = try WorkbenchSession(options: WorkbenchOptions())
        session.keepsMintedValues = true
        let outputs = lines.map { session.execute($0).output }
        let names = Dictionary(uniqueKeysWithValues: session.mintedValues.entries.map { ($0.name, $0.value) })
        // c1's id on the server is its own here (no other user held it: examples/33 shows one that differs).
        #expect(Set(names.keys) == ["client.user", "c1.id", "m1.id", "\(names["client.user"] ?? "").picture"], "\(names)")
        #expect(outputs[1].contains(names["c1.id"] ?? "-") && outputs[4].contains(names.values.first { $0.hasPrefix("https:") } ?? "-"))
        #expect(!names.values.contains("c-visit"))

        let plain = try WorkbenchSession(options: WorkbenchOptions())
        for line in lines { _ = plain.execute(line) }
        #expect(plain.mintedValues.entries.isEmpty)
    }

    /// Against a server, a transcript that runs in both worlds is compared
    /// with its run in the embedded world: here a "server" world of another
    /// seed, whose ids all differ, passes; the same file with one id
    /// printed where another's belongs fails, though both have the shape
    /// of a minted id.
    @Test func aRunIsComparedWithTheEmbeddedRunByWhatItsValuesAre() throws {
        let text = """
            > user set alice
            user alice set on client (no request)
            > start conversation
            c1 = conversation c-89025cc1 (local)
            > start conversation
            c2 = conversation c-d7363ca5 (local)
            > expect c1.id == "c-00000000"
            ...
            > inspect c1
            ...

            """
        func check(_ transcript: Transcript) throws -> TranscriptResult {
            var options = WorkbenchOptions()
            options.seed = 7
            let other = try WorkbenchSession(options: options)
            other.keepsMintedValues = true
            return TranscriptRunner.check(
                transcript, path: "t.chat", session: other, execute: other.execute,
                conformance: try .of(transcript, options: WorkbenchOptions()))
        }
        let transcript = try Transcript.parse(text.replacingOccurrences(of: "> expect", with: "> # expect"), path: "t.chat")
        let result = try check(transcript)
        #expect(result.passed, "\(result.failures)")
        // An expect that fails in both worlds still fails: its message names the same value on each side.
        let failing = try check(try Transcript.parse(text, path: "t.chat"))
        #expect(!failing.passed && failing.failedSteps.map(\.line) == [7], "\(failing.failures)")

        // `inspect c2` where c1 is meant: the two worlds print different conversations' ids.
        let swapped = try Transcript.parse(text.replacingOccurrences(of: "> expect", with: "> # expect") + "> inspect c2\n", path: "t.chat")
        let runs = try WorkbenchSession(options: WorkbenchOptions())
        runs.keepsMintedValues = true
        let crossed = TranscriptRunner.check(
            swapped, path: "t.chat", session: runs, execute: { runs.execute($0 == "inspect c2" ? "inspect c1" : $0) },
            conformance: try .of(swapped, options: WorkbenchOptions()))
        #expect(!crossed.passed)
        #expect(
            crossed.failures.joined(separator: "\n").contains("<c1.id>") && crossed.failures.joined(separator: "\n").contains("<c2.id>"))
    }
}
