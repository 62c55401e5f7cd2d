import Testing

@testable import Workbench

/// Expressions a tester needs (issue 29): a path on the right of a
/// comparison, a message's place in a watcher.
@Suite struct ExpressionTests {
    @Test func aPathOnTheRightIsAPath() throws {
        let (_, results) = try run([
            "user set alice", "start conversation", "send c1 text hello", "agent say c1 hello", "agent say c1 bye",
            "expect m2.text == m1.text", "expect m3.text == m1.text", "expect m1.text == \"m2.text\"", "expect m1.state == sent",
        ])
        let outputs = results.suffix(4).map(\.output)
        #expect(outputs[0] == "ok: m2.text == m1.text\n")
        #expect(outputs[1] == "expect failed: m3.text == m1.text — expected == m1.text (\"hello\"), found \"bye\"\n")
        // Quoted, it stays a string.
        #expect(outputs[2] == "expect failed: m1.text == \"m2.text\" — expected == \"m2.text\", found \"hello\"\n")
        #expect(outputs[3] == "ok: m1.state == sent\n")
    }

    @Test func aWatcherSaysWhereItShowsAMessage() throws {
        let (_, results) = try run([
            "user set alice", "start conversation", "send c1 text hello", "w1 = watch items c1", "agent say c1 bye",
            "expect w1.indexOf(m2) < w1.indexOf(m1)", "w1.indexOf(m1)", "w1.indexOf(c1)", "w1.indexOf(zz)",
        ])
        let outputs = results.suffix(4).map(\.output)
        #expect(outputs[0] == "ok: w1.indexOf(m2) < w1.indexOf(m1)\n")
        #expect(outputs[1] == "1\n")
        #expect(outputs[2] == "none\n")
        #expect(outputs[3] == "script error: unknown handle \"zz\"\n")
    }

    @Test func aMessageSaysItsSequenceNumberOnceTheServerGaveOne() throws {
        let (_, results) = try run([
            "user set alice", "start conversation", "send c1 text hello", "net offline", "send c1 text later", "m1.seq", "m2.seq",
            "net online", "agent say c1 bye", "m2.seq", "expect m3.seq > m2.seq",
        ])
        #expect(results.map(\.output)[5...6] == ["1\n", "none\n"])
        #expect(results.suffix(2).map(\.output) == ["2\n", "ok: m3.seq > m2.seq\n"])
    }
}

/// Output never drives the terminal (issue 30): control characters that came
/// in with the input are echoed escaped.
@Suite struct EscapedOutputTests {
    @Test func anEscapeSequenceInTheInputIsEchoedEscaped() throws {
        let (_, results) = try run(["say\u{1b}[31mRED", "user set a\u{7}b", "expect client.user == \"x\u{9b}y\""])
        #expect(results[0].output == "script error: unknown verb \"say\\u001b[31mRED\"; type help for the list\n")
        #expect(!results.map(\.output).joined().unicodeScalars.contains { $0.value == 0x1b || $0.value == 0x07 || $0.value == 0x9b })
    }

    @Test func ordinaryTextIsUntouched() {
        #expect(Format.escapingControls("café\tline\n") == "café\tline\n")
        #expect(Format.escapingControls("a\u{1b}b\u{7f}c\u{85}d") == "a\\u001bb\\u007fc\\u0085d")
    }

    /// `·` (C2 B7) and `\u{a0}` share their first byte with the controls U+0080–U+009F
    /// (C2 80–C2 9F): only the controls are escaped, at either end of a line.
    @Test func aSharedLeadByteIsNoControl() {
        #expect(Format.escapingControls("m2 sent \"B\" · m1 sent \"A\"\u{a0}") == "m2 sent \"B\" · m1 sent \"A\"\u{a0}")
        #expect(Format.escapingControls("\u{80}x · y\u{9f}") == "\\u0080x · y\\u009f")
        #expect(Format.escapingControls("ends in \u{c2}") == "ends in \u{c2}")
    }
}
