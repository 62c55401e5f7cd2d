import Testing
import Workbench

@testable import chatbench

/// Colour goes by what each part of the output is, as the code that printed
/// it said, never by its text (issue 30).
@Suite struct ColourTests {
    private static let red = "\u{1B}[31m", green = "\u{1B}[32m", dim = "\u{1B}[2m", reset = "\u{1B}[0m"

    /// The lines typed, in a fresh session, and what each step printed.
    private func steps(_ lines: [String]) throws -> [StepResult] {
        let session = try WorkbenchSession(options: WorkbenchOptions())
        return lines.map(session.execute)
    }

    @Test func noColourInAPipeAndNoneWithNO_COLOR() {
        #expect(Colour.paint(.line("error: x", as: .failure)) == "error: x\n" || Colour.enabled)
        #expect(!Colour.allowed(noColor: "1"))
        #expect(Colour.allowed(noColor: nil))
        #expect(Colour.allowed(noColor: ""))
    }

    @Test func eachPartIsPaintedByWhatItIs() {
        var text = StyledText.line("ok: a", as: .success)
        text.appendLine("error: b", as: .failure)
        text.append("  ")
        text.append("[00:00:00.000]", as: .time)
        text.appendLine(" w1 emits")
        text.appendLine("    - gone", as: .removed)
        text.appendLine("    + new", as: .added)
        #expect(
            Colour.paint(text, force: true)
                == "\(Self.green)ok: a\(Self.reset)\n\(Self.red)error: b\(Self.reset)\n  \(Self.dim)[00:00:00.000]\(Self.reset) w1 emits\n"
                + "\(Self.red)    - gone\(Self.reset)\n\(Self.green)    + new\(Self.reset)\n")
    }

    /// Text that reads like an error, an `ok:` or a diff line is plain
    /// unless its producer said otherwise: before, the terminal painted by
    /// the text, and lines a user typed (listed by `history`) came out red
    /// and green.
    @Test func textThatLooksLikeAKindIsPlain() {
        let plain = StyledText("error: not really\nok: fake\n  - x\n  + y\n  [00:00:00.000] not an event\nFAIL x\n")
        #expect(Colour.paint(plain, force: true) == plain.text)
    }

    @Test func aSessionsErrorsAreRedItsOksGreenAndItsEventTimesDim() throws {
        let results = try steps([
            "user set alice", "start conversation", "send c1 text \"error: not really\"", "expect m1.state == sent", "retry m1",
        ])
        let user = Colour.paint(results[0].styledOutput, force: true)
        #expect(user == "user alice set on client (no request)\n  \(Self.dim)[00:00:00.000]\(Self.reset) client.session → userSet(alice)\n")
        // The message's text is shown, plain, in no line painted red.
        let send = Colour.paint(results[2].styledOutput, force: true)
        #expect(!send.contains(Self.red) && send.contains(Self.dim))
        #expect(Colour.paint(results[3].styledOutput, force: true) == "\(Self.green)ok: m1.state == sent\(Self.reset)\n")
        let retry = Colour.paint(results[4].styledOutput, force: true)
        #expect(retry.hasPrefix("\(Self.red)error: notRetryable — ") && retry.hasSuffix("\(Self.reset)\n"))
    }

    /// A line typed with a newline in a quote: its error is red on both of
    /// its lines (the second starts `ok:`), and `history` lists it plain
    /// (one of its lines starts `ok:`, the other `  - `).
    @Test func whatAUserTypedIsNeverTakenForAKind() throws {
        let results = try steps(["expect client.user \"a\nok: fake\" x", "send c9 text \"x\n  - y\"", "history"])
        #expect(
            Colour.paint(results[0].styledOutput, force: true)
                == "\(Self.red)script error: unknown comparison \"a\(Self.reset)\n"
                + "\(Self.red)ok: fake\": use one of == != < <= > >= contains\(Self.reset)\n")
        #expect(results[2].output.contains("\nok: fake\" x\n") && results[2].output.contains("\n  - y\"\n"))
        #expect(Colour.paint(results[2].styledOutput, force: true) == results[2].output)
    }
}
