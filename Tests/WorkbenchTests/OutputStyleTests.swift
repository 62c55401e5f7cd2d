import ChatTestSupport
import Foundation
import Testing

@testable import Workbench

/// Each line says what it is where it is made (issue 30): an error, an
/// `ok:`, an event's time; text that only reads like one is plain.
@Suite struct OutputStyleTests {
    /// `style: text` for each styled part of a step's output.
    private func parts(_ result: StepResult) -> [String] {
        result.styledOutput.styledParts.map { "\($0.style): \($0.text)" }
    }

    @Test func theProducersSayWhatTheirLinesAre() throws {
        let (_, results) = try run([
            "user set alice", "start conversation", "send c1 text \"error: not really\"", "expect m1.state == sent",
            "expect m1.state == failed", "retry m1", "sned", "wait m1 state failed --within 1s", "m1.text",
        ])
        #expect(parts(results[0]) == ["eventTime: [00:00:00.000]"])
        // The message's text, in its events, is no error.
        #expect(parts(results[2]).allSatisfy { $0.hasPrefix("eventTime: [00:00:00.0") })
        #expect(parts(results[3]) == ["success: ok: m1.state == sent"])
        #expect(parts(results[4]) == ["failure: expect failed: m1.state == failed — expected == \"failed\", found \"sent\""])
        #expect(parts(results[5]).count == 1 && parts(results[5])[0].hasPrefix("failure: error: notRetryable — "))
        #expect(parts(results[6]).count == 1 && parts(results[6])[0].hasPrefix("failure: script error: unknown verb or handle \"sned\""))
        #expect(parts(results[7]) == ["failure: wait failed: gave up waiting for m1 to be failed after 1s"])
        #expect(results[8].output == "\"error: not really\"\n" && parts(results[8]) == [])
    }

    /// `sessions` and `sessions show` mark their times and their statuses
    /// (a failure, a success) as they make them; the recorded output they
    /// show has the styles it was printed with (v11: `step.styles`).
    @Test func theSessionListingsSayWhatTheirPartsAre() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("s.sqlite").path
        let workbench = try WorkbenchSession(options: WorkbenchOptions())
        let recorder = try Recorder(store: try RecordingStore(path: path), workbench: workbench, kind: .script)
        _ = recorder.execute("user set alice")
        _ = recorder.execute("expect client.user == bob")
        let listing = recorder.execute("sessions")
        #expect(listing.output.hasSuffix("  script  expect failed, recording\n"))
        #expect(parts(listing).count == 2)
        #expect(parts(listing).first?.hasPrefix("time: 20") == true && parts(listing).last == "failure: expect failed")
        let shown = recorder.execute("sessions show \(path)")
        #expect(shown.output.contains("\n#2 [00:00:00.000] (expectFailed) > expect client.user == bob\nexpect failed: "))
        #expect(
            parts(shown) == [
                "failure: expect failed", "time: [00:00:00.000]", "eventTime: [00:00:00.000]", "time: [00:00:00.000]",
                "failure:  (expectFailed)", "failure: expect failed: client.user == bob — expected == \"bob\", found \"alice\"",
                "time: [00:00:00.000]", "time: \(SessionListing.date(try RecordingStore(path: path).sessions()[0].created))",
                "failure: expect failed",
            ])
        recorder.finish()
        let listed = SessionListing.table(try RecordingStore(path: path).sessions())
        #expect(listed.last?.styledParts.map { "\($0.style): \($0.text)" }.last == "failure: expect failed")
    }

    /// `run FILE` shows its lines' output with what each line is.
    @Test func aScriptRunInTheSessionKeepsItsStyles() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("s.chat").path
        try Data("user set alice\nexpect client.user == alice\nsned\n".utf8).write(to: URL(fileURLWithPath: path))
        let (_, results) = try run(["run \(path)"])
        #expect(
            results[0].output
                == "> user set alice\nuser alice set on client (no request)\n  [00:00:00.000] client.session → userSet(alice)\n"
                + "> expect client.user == alice\nok: client.user == alice\n> sned\n"
                + "script error: unknown verb or handle \"sned\" (did you mean send?)\n")
        #expect(
            parts(results[0]) == [
                "eventTime: [00:00:00.000]", "success: ok: client.user == alice",
                "failure: script error: unknown verb or handle \"sned\" (did you mean send?)",
            ])
    }

    @Test func styledTextKeepsItsSpansWhenJoinedAndCut() {
        var text = StyledText("a ")
        text.append("b", as: .failure)
        text.append(.line("é", as: .time))
        #expect(text.text == "a bé\n")
        #expect(text.spans == [.init(2..<3, .failure), .init(3..<5, .time)])
        let cut = StyledText.line("x", as: .success).droppingLastNewline()
        #expect(cut.text == "x" && cut.spans == [.init(0..<1, .success)])
        #expect(StyledText("").droppingLastNewline() == StyledText())
    }
}
