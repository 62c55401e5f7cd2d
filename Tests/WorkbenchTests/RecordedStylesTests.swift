import ChatSDK
import ChatTestSupport
import Foundation
import GRDB
import Testing

@testable import Workbench

/// A step's output is recorded with what each styled part of it is
/// (`step.styles`, v11), as the code that printed it said, so that
/// `sessions show` colours it as it was printed, never by reading the
/// text back (issue 30); redaction never lets a part carry text across.
@Suite struct RecordedStylesTests {
    typealias Span = StyledText.Span

    @Test func theHandWrittenJSONIsTheEncodersAndReadsBack() throws {
        let spans = [Span(0..<16, .time), Span(17..<20, .failure), Span(20..<21, .success), Span(30..<31, .removed), Span(31..<40, .added)]
        let encoded = try #require(TapeCoding.encode(spans))
        #expect(Span.json(spans) == String(decoding: encoded, as: UTF8.self))
        #expect(Span.json(spans) == #"[[0,16,"time"],[17,20,"failure"],[20,21,"success"],[30,31,"removed"],[31,40,"added"]]"#)
        #expect(Span.spans(json: Span.json(spans), within: String(repeating: "x", count: 40)) == spans)
    }

    /// Styles that do not fit the text are not shown: the text stays, plain.
    @Test func stylesThatDoNotFitAreDropped() {
        let text = "ok: fine\n"
        #expect(Span.spans(json: #"[[0,8,"success"]]"#, within: text) == [Span(0..<8, .success)])
        #expect(Span.spans(json: #"[[0,80,"success"]]"#, within: text) == nil, "past the end")
        #expect(Span.spans(json: #"[[0,4,"success"],[2,6,"time"]]"#, within: text) == nil, "overlapping")
        #expect(Span.spans(json: #"[[4,2,"success"]]"#, within: text) == nil, "backwards")
        #expect(Span.spans(json: #"[[0,2,"sparkles"]]"#, within: text) == nil, "a style this version does not know")
        #expect(Span.spans(json: "garbage", within: text) == nil)
    }

    /// Redaction replaces secrets, line for line: a part on a line it left
    /// alone keeps its place (moved by what changed before it), a part that
    /// covered a changed line covers the line as redacted, any other part
    /// on a changed line is dropped.
    @Test func redactionCarriesPartsOverLineByLine() {
        var text = StyledText("token tok-12345678 given\n")
        text.append("[00:00:00.010]", as: .time)
        text.append(" next\n")
        text.appendLine("error: tok-12345678 refused", as: .failure)
        text.append("see ")
        text.append("tok-12345678", as: .added)
        text.append("\n")
        let redacted = text.text.replacingOccurrences(of: "tok-12345678", with: "<token#1>")
        let carried = StyledText(text: redacted, spans: text.spans(carriedTo: redacted))
        #expect(
            carried.styledParts.map { "\($0.style): \($0.text)" } == [
                "time: [00:00:00.010]", "failure: error: <token#1> refused",
            ])
        // The same text, unchanged: every part as it was.
        #expect(text.spans(carriedTo: text.text) == text.spans)
        // Lines that do not match up: nothing is kept.
        #expect(text.spans(carriedTo: "one line only").isEmpty)
    }

    @Test func aStyledTextSplitsIntoLinesWithTheirParts() {
        var text = StyledText("a ")
        text.append("b\nc", as: .failure)
        text.append("\n")
        #expect(text.lines.map(\.text) == ["a b", "c", ""])
        #expect(text.lines.map { $0.styledParts.map(\.text) } == [["b"], ["c"], []])
    }

    /// Recorded and read back: `sessions show` shows each step's output
    /// with the styles it was printed with; text that only reads like a
    /// failure stays plain.
    @Test func aRecordedStepKeepsItsStyles() throws {
        let folder = try TemporaryFolder()
        let (store, session) = try RecordingFixtures.record(
            [
                "user set alice", "start conversation", "send c1 text \"error: not really\"", "expect m1.state == sent",
                "expect m1.state == failed", "m1.text",
            ], in: folder)
        let steps = try store.steps(of: session.id)
        // A step that printed no styled part says so (`[]`): only a step recorded before v11 has none known.
        #expect(steps.map { $0.outputStyles?.isEmpty } == [false, true, false, false, false, true])
        // Each event line's time; the message's text, which reads like an error, is no part.
        #expect(steps[2].styledOutput.styledParts.allSatisfy { $0.style == .eventTime && $0.text.hasPrefix("[00:00:00.") })
        #expect(steps[3].styledOutput.styledParts.map(\.style) == [.success])
        #expect(steps[4].styledOutput.styledParts.first?.text.hasPrefix("expect failed: m1.state == failed") == true)
        let shown = SessionListing.transcript(session, steps: steps)
        let message = try #require(shown.first { $0.text == "\"error: not really\"" })
        #expect(message.spans.isEmpty)
        #expect(shown.contains { $0.text == "ok: m1.state == sent" && $0.styledParts.map(\.style) == [.success] })
        let stored = try store.read { db in try String?.fetchAll(db, sql: "SELECT styles FROM step ORDER BY number") }
        #expect(stored[1] == "[]" && stored[3] == #"[[0,20,"success"]]"#)
    }
}

/// A server session's minted values are kept after its styles (issue 30):
/// they may lie within a styled part, and are never shown as a style.
@Suite struct RecordedMintedPartsTests {
    typealias Span = StyledText.Span

    @Test func mintedPartsFollowTheStylesAndMayLieWithinThem() {
        let text = "error: no conversation c-1234 here"
        let spans = [Span(0..<34, .failure), Span(23..<29, .minted)]
        #expect(Span.spans(json: Span.json(spans), within: text) == spans)
        #expect(Span.spans(json: #"[[23,29,"minted"],[0,34,"failure"]]"#, within: text) == nil, "styles first")
        #expect(Span.spans(json: #"[[0,34,"failure"],[23,29,"minted"],[20,25,"minted"]]"#, within: text) == nil, "in order")
        let step = RecordedStep(
            number: 1, input: "x", output: text, status: .ok, virtualTime: 0, wallTime: Date(), wallMicroseconds: 0, events: [],
            outputStyles: spans)
        #expect(step.styledOutput.spans == [Span(0..<34, .failure)])
        #expect(step.mintedParts == [23..<29])
    }
}
