import ChatTestSupport
import Foundation
import Testing

@testable import Workbench

/// Shrinking what fails as a test (issue 29 §4): a transcript whose output
/// differs or whose expect fails, a recorded session whose replay diverges
/// (through its export), and an app's field recording (through its export).
/// Each planted failure shrinks to the hand-written minimal steps, and the
/// result fails `chatbench test` the same way.
@Suite struct TranscriptShrinkerTests {
    /// The inputs of a transcript's steps.
    static func inputs(_ transcript: Transcript) -> [String] { transcript.blocks.map(\.input) }

    /// The result, run as `chatbench test` runs it: its first failing step's summary.
    static func testFailure(_ transcript: Transcript) throws -> String? {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("shrunk.chat").path
        try transcript.rendered().write(toFile: path, atomically: true, encoding: .utf8)
        return TranscriptRunner.run(path: path).failedSteps.first?.summary
    }

    /// A session's steps: `lines` run and recorded, as `export` reads them.
    static func recorded(_ lines: [String]) throws -> (RecordedSession, [RecordedStep]) {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("s.sqlite").path
        let recorder = try Recorder(
            store: try RecordingStore(path: path), workbench: try WorkbenchSession(options: WorkbenchOptions()), kind: .script)
        for line in lines { _ = recorder.execute(line) }
        let store = try RecordingStore(path: path, create: false)
        return (try store.session(String(recorder.session.id)), try store.steps(of: recorder.session.id))
    }

    static let padded = [
        "user set alice", "clock advance 10m", "start conversation", "watch conversations", "start conversation",
        "agent say c2 \"hello\"", "watch items c1", "net fail 3", "send c1 text \"one\"", "clock advance 1h", "send c2 text \"two\"",
        "app background", "app foreground", "settle",
    ]

    @Test func anOutputThatDiffersShrinksToTheStepsItNeeds() throws {
        // What the world prints, then one line of the failing step changed:
        // the transcript says `m1: failed` where the world says `m1: toBeSent`.
        let (session, steps) = try Self.recorded(Self.padded)
        var text = Transcript.export(session, steps: steps)
        let line = "  [00:10:00.065] m1: toBeSent\n"
        #expect(text.contains(line), "\(text)")
        text = text.replacingOccurrences(of: line, with: "  [00:10:00.065] m1: failed\n")
        var shrinker = TranscriptShrinker()
        shrinker.seed = 1
        let result = try #require(try shrinker.shrink(try Transcript.parse(text, path: "planted.chat")))
        #expect(
            result.signature.description
                == #"output differs at > send c1 text "one": expected "  [00:10:00.065] m1: failed", found "  [00:10:00.065] m1: toBeSent""#
        )
        // The time of the failure needs the clock; the watchers' lines are
        // in the step's expected output before it (c2 in the list of
        // conversations, w2 the second watcher), so they stay too.
        #expect(
            Self.inputs(result.transcript) == [
                "user set alice", "clock advance 10m", "start conversation", "watch conversations", "start conversation",
                "watch items c1", "net fail 1", "send c1 text \"one\"",
            ], "\(result.transcript.rendered())")
        #expect(try Self.testFailure(result.transcript) == #"output differs at > send c1 text "one""#)
    }

    @Test func aFailedExpectShrinksToTheStepsItNeeds() throws {
        let text = """
            # seed: 1
            > user set alice
            user alice set on client (no request)
            ...
            > clock advance 1h
            ...
            > start conversation
            ...
            > watch conversations
            ...
            > net offline
            ...
            > send c1 text "hi"
            ...
            > clock advance 5m
            ...
            > expect m1.state == sent
            expect failed: m1.state == sent — expected == "sent", found "toBeSent"
            > clock
            ...

            """
        let result = try #require(try TranscriptShrinker().shrink(try Transcript.parse(text, path: "expect.chat")))
        #expect(
            result.signature.description
                == #"an expect failed: expect m1.state == sent — expected == "sent", found "toBeSent" (m1 by alice "hi")"#)
        #expect(
            Self.inputs(result.transcript) == [
                "user set alice", "start conversation", "net offline", "send c1 text \"hi\"", "expect m1.state == sent",
            ])
        #expect(try Self.testFailure(result.transcript) == "an expect failed at > expect m1.state == sent")
    }

    @Test func aTranscriptThatPassesHasNothingToShrink() throws {
        let (session, steps) = try Self.recorded(Self.padded)
        #expect(try TranscriptShrinker().shrink(try Transcript.parse(Transcript.export(session, steps: steps), path: "ok.chat")) == nil)
    }

    @Test func aRecordedSessionShrinksToWhereItsReplayDiverges() throws {
        // As if the SDK had changed since the recording: the recording says
        // the first request failed and the message waited, the world now
        // sends it at once.
        var (session, steps) = try Self.recorded([
            "user set alice", "clock advance 1m", "start conversation", "net fail 1", "send c1 text hi", "settle",
        ])
        steps = steps.filter { $0.input != "net fail 1" }
        let exported = try Transcript.parse(Transcript.export(session, steps: steps), path: "session.chat")
        #expect(!Self.inputs(exported).contains("net fail 1"))
        let result = try #require(try TranscriptShrinker().shrink(exported))
        #expect(result.signature.description.hasPrefix("output differs at > send c1 text hi: "), "\(result.signature)")
        #expect(Self.inputs(result.transcript) == ["user set alice", "clock advance 1m", "start conversation", "send c1 text hi"])
        #expect(try Self.testFailure(result.transcript) == "output differs at > send c1 text hi")
    }

    @Test func aFieldRecordingShrinksThroughItsExport() throws {
        // The device saw the second message fail; the world sends it. The
        // signature names what m2 is: without it, a script in which m2 is the
        // agent's answer (numbered sooner) failed with the same words.
        let (session, steps, traffic) = try FieldExportTests.loadWithTheSecondMessageFailed()
        let export = try FieldExport.export(session, steps: steps, traffic: traffic)
        let transcript = try Transcript.parse(export.text, path: "ticket.chat")
        let result = try #require(try TranscriptShrinker().shrink(transcript))
        #expect(
            result.signature.description
                == #"an expect failed: expect m2.state == failed — expected == "failed", found "sent" (m2 by alice "Hello?")"#)
        #expect(
            Self.inputs(result.transcript) == [
                "user set alice", #"start conversation --id order-4711 --title "Order 4711""#, #"send c1 text "Where is my order?""#,
                #"send c1 text "Hello?""#, "expect m2.state == failed",
            ])
        #expect(transcript.blocks.count == 18)
        #expect(result.transcript.embeddedOnly == transcript.embeddedOnly)
        #expect(try Self.testFailure(result.transcript) == "an expect failed at > expect m2.state == failed")
    }
}
