import ChatCore
import Foundation
import Testing

@testable import ChatSDK
@testable import Workbench

@Suite struct TokenizerTests {
    @Test func wordsAndQuotedStrings() throws {
        let tokens = try Tokenizer.tokenize(#"send c1 text "Hello, doctor" --reply-to m1"#)
        #expect(tokens.map(\.text) == ["send", "c1", "text", "Hello, doctor", "--reply-to", "m1"])
        #expect(tokens.map(\.quoted) == [false, false, false, true, false, false])
    }

    @Test func escapesInsideDoubleQuotes() throws {
        let tokens = try Tokenizer.tokenize(#"agent say c1 "she said \"hi\"\nthen left""#)
        #expect(tokens.last?.text == "she said \"hi\"\nthen left")
    }

    @Test func singleQuotesKeepBackslashes() throws {
        #expect(try Tokenizer.tokenize(#"x 'a\b'"#).last?.text == #"a\b"#)
    }

    @Test func aHashThatStartsAWordStartsAComment() throws {
        #expect(try Tokenizer.tokenize("user set alice   # setCurrentUser: no request").map(\.text) == ["user", "set", "alice"])
        #expect(try Tokenizer.tokenize("watch conversations #the provider").map(\.text) == ["watch", "conversations"])
        #expect(try Tokenizer.tokenize("# only a comment").isEmpty)
        #expect(
            try Tokenizer.tokenize(#"agent say c1 "not # a comment" # but this is"#).map(\.text) == [
                "agent", "say", "c1", "not # a comment",
            ])
        #expect(try Tokenizer.tokenize("login jwt alice <jwt#1>").last?.text == "<jwt#1>")
    }

    @Test func unbalancedQuoteNamesItsColumn() {
        #expect(throws: ScriptError(.syntax, "unterminated quote: the string starting at column 14 has no closing \"")) {
            try Tokenizer.tokenize(#"send c1 text "oops"#)
        }
    }
}

@Suite struct DurationTests {
    @Test(arguments: [
        ("500ms", 500), ("30s", 30_000), ("10m", 600_000), ("2h", 7_200_000), ("1d", 86_400_000), ("1m30s", 90_000),
        // As the workbench prints them (issue 29): with fractions.
        ("1.5s", 1_500), ("59m29.5s", 3_569_500), ("2h34m0.947s", 9_240_947), ("0.25m", 15_000), ("1.000s", 1_000),
    ])
    func parses(text: String, milliseconds: Int64) throws {
        #expect(try DurationParser.parse(text).wholeMilliseconds == milliseconds)
    }

    /// What `Format.duration` prints (in one word) reads back as itself.
    @Test(arguments: [1, 189, 1_500, 90_000, 9_240_947, 86_399_999])
    func readsWhatItPrints(milliseconds: Int64) throws {
        let printed = Format.duration(milliseconds: milliseconds)
        #expect(try DurationParser.parse(printed).wholeMilliseconds == milliseconds, "\(printed)")
    }

    @Test(arguments: ["10x", "", "ms", "5", "-3s", "1.5ms", "1.s", ".5s", "1.5.5s", "1.0001s", "99999999999h"])
    func refuses(text: String) {
        #expect(throws: ScriptError.self) { try DurationParser.parse(text) }
    }

    @Test func formatsTheShortestSpelling() {
        #expect(Format.duration(.milliseconds(5_400_250)) == "1h30m0.25s")
        #expect(Format.duration(.zero) == "0s")
        #expect(Format.duration(milliseconds: 189) == "189ms")
        #expect(Format.duration(milliseconds: 1500) == "1.5s")
        #expect(Format.duration(milliseconds: 90_000) == "1m30s")
        #expect(Format.duration(milliseconds: 9_240_947) == "2h34m0.947s")
        #expect(Format.duration(milliseconds: 60 * 86_400_000 + 5_400_000) == "60d 1h30m")
        #expect(Format.duration(milliseconds: 2 * 86_400_000) == "2d")
    }
}

@Suite struct FormatTests {
    @Test func stringsAreAlwaysQuotedAndEscaped() {
        #expect(Value.string("sent").description == "\"sent\"")
        #expect(Value.string("two\nlines \"q\"").description == #""two\nlines \"q\"""#)
        #expect(Value.list([.string("a"), .string("b c"), .int(2)]).description == #"["a", "b c", 2]"#)
    }

    @Test func sizesAttachmentsAndCounts() {
        #expect(Format.bytes(512) == "512 B")
        #expect(Format.bytes(1500) == "1.5 kB")
        #expect(Format.bytes(2_000_000) == "2.0 MB")
        #expect(Format.bytes(999_999) == "1.0 MB")
        #expect(Format.content(.attachment(kind: .image, mimeType: "image/jpeg", size: 2_000_000, fileName: nil)) == "image/jpeg 2.0 MB")
        #expect(Format.count(1, "step") == "1 step")
        #expect(Format.count(2, "step") == "2 steps")
        #expect(Format.wall(seconds: 0.0012) == "1.2ms")
        #expect(Format.wall(seconds: 2.346) == "2.35s")
    }
}

@Suite struct PathTests {
    @Test func fieldsIndexesAndArguments() throws {
        let path = try PathExpression.parse("server.messages(c1)[0].text")
        #expect(path.root == "server")
        #expect(path.steps == [.field("messages", argument: "c1"), .index(0), .field("text", argument: nil)])
        #expect(path.description == "server.messages(c1)[0].text")
    }

    @Test(arguments: ["w1.", "w1[x]", "w1[-1]", "w1.(a)", ".x", "w1..state", "a)b"])
    func refusesMalformedPaths(text: String) {
        #expect(throws: ScriptError.self) { try PathExpression.parse(text) }
    }
}

@Suite struct SuggestionTests {
    @Test func closestVerb() {
        #expect(Suggestion.closest(to: "sned", in: ["send", "start", "stop"]) == "send")
        #expect(Suggestion.closest(to: "wacth", in: ["watch", "wait"]) == "watch")
        #expect(Suggestion.closest(to: "zzzzzz", in: ["send", "watch"]) == nil)
    }

    @Test func aFieldWithAnArgumentIsComparedByItsName() {
        #expect(Suggestion.closest(to: "mesages", in: ["users", "messages(C)", "sessions(ID)"]) == "messages(C)")
        #expect(Suggestion.closest(to: "sesions", in: ["users", "messages(C)", "sessions(ID)"]) == "sessions(ID)")
    }

    @Test func anAbbreviationFindsItsWord() {
        #expect(Suggestion.closest(to: "clr", in: ["set", "clear"]) == "clear")
        #expect(Suggestion.closest(to: "advnc", in: ["advance"]) == "advance")
        // The first letter must match, and two letters are too few.
        #expect(Suggestion.closest(to: "lr", in: ["set", "clear"]) == nil)
        #expect(Suggestion.closest(to: "xlr", in: ["set", "clear"]) == nil)
        #expect(Suggestion.abbreviates("clr", "clear"))
        #expect(!Suggestion.abbreviates("rlc", "clear"))
    }

    @Test func editDistance() {
        #expect(Suggestion.editDistance("kitten", "sitting") == 3)
        #expect(Suggestion.editDistance("", "abc") == 3)
        #expect(Suggestion.editDistance("sned", "send") == 1)
    }
}

@Suite struct ComparisonTests {
    @Test func comparesNumbersStringsAndLists() throws {
        #expect(try Comparison.equal.holds(.int(3), .int(3)))
        #expect(try Comparison.less.holds(.int(2), .int(10)))
        #expect(try !Comparison.less.holds(.string("10"), .int(2)))
        #expect(try Comparison.greaterOrEqual.holds(.int(2), .int(2)))
        #expect(try Comparison.notEqual.holds(.string("sent"), .string("failed")))
        #expect(try Comparison.contains.holds(.list([.string("alice"), .string("bob")]), .string("bob")))
        #expect(try Comparison.contains.holds(.string("Hello, doctor"), .string("doctor")))
        #expect(try Comparison.equal.holds(.none, .none))
        #expect(try !Comparison.equal.holds(.none, .string("x")))
    }

    @Test(arguments: Comparison.allCases.filter { $0 != .contains })
    func aQuotedNumberComparesAsTheNumber(comparison: Comparison) throws {
        for (a, b) in [(Int64(2), Int64(2)), (1, 2), (3, 2)] {
            let plain = try comparison.holds(.int(a), .int(b))
            #expect(try comparison.holds(.int(a), .string(String(b))) == plain)
            #expect(try comparison.holds(.string(String(a)), .int(b)) == plain)
        }
    }

    @Test func aNumberAgainstAWordIsTheScriptsMistake() {
        #expect(throws: ScriptError.self) { try Comparison.equal.holds(.int(2), .string("abc")) }
        #expect(throws: ScriptError.self) { try Comparison.greater.holds(.string("abc"), .int(2)) }
    }

    @Test func literals() {
        #expect(Value.literal(Token(text: "3", quoted: false, column: 1)) == .int(3))
        #expect(Value.literal(Token(text: "3", quoted: true, column: 1)) == .string("3"))
        #expect(Value.literal(Token(text: "none", quoted: false, column: 1)) == .none)
        #expect(Value.literal(Token(text: "true", quoted: false, column: 1)) == .bool(true))
    }
}

@Suite struct RedactorTests {
    @Test func jwtsAndSecretsBecomeStablePlaceholders() {
        let redactor = Redactor()
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJleHRlcm5hbF9pZCI6ImFsaWNlIn0.c2lnbmF0dXJl"
        #expect(redactor.redact("login jwt alice \(jwt)") == "login jwt alice <jwt#1>")
        #expect(redactor.redact("again \(jwt)") == "again <jwt#1>")
        #expect(redactor.redact("login jwt bob --secret hunter22") == "login jwt bob --secret <secret#1>")
        #expect(redactor.redact("x --secret \"two words\"") == "x --secret <secret#2>")
        #expect(redactor.redact("token at_0123456789abcdef") == "token <token#1>")
        // As the backend mints them.
        #expect(
            redactor.redact(#"{"accessToken":"at-59320dd7","refreshToken":"rt-0123456789abcdef0123456789abcdef"}"#)
                == #"{"accessToken":"<token#3>","refreshToken":"<token#2>"}"#)
        #expect(redactor.redact("a first-rate start-up at-home") == "a first-rate start-up at-home")
        #expect(redactor.redact("send c1 text hello") == "send c1 text hello")
        // The tape's envelopes: the API key is a secret too (issue 13).
        #expect(
            redactor.redact(#"{"accessToken":null,"apiKey":"demo-key","deviceId":"d1"}"#)
                == #"{"accessToken":null,"apiKey":"<secret#3>","deviceId":"d1"}"#)
        #expect(redactor.redact(#"{"apiKey":"demo-key"}"#) == #"{"apiKey":"<secret#3>"}"#)
        // A user signature (A12), on the tape and as the authorize options give it.
        #expect(
            redactor.redact(#"{"connectUserId":{"signature":"9f86d081","userId":"u-1"}}"#)
                == #"{"connectUserId":{"signature":"<secret#4>","userId":"u-1"}}"#)
        #expect(redactor.redact("authorize u-1 --signature 9f86d081") == "authorize u-1 --signature <secret#4>")
        #expect(redactor.redact("authorize u-1 --header Cookie=sid=abc") == "authorize u-1 --header <secret#5>")
    }
}

@Suite struct LineContinuationTests {
    @Test func aTrailingBackslashOrAnOpenQuoteGoesOn() {
        #expect(LineContinuation.continues(#"send c1 text \"#))
        #expect(LineContinuation.continues(#"send c1 text "first line"#))
        #expect(LineContinuation.continues(#"agent say c1 'still open"#))
        #expect(!LineContinuation.continues(#"send c1 text "done""#))
        #expect(!LineContinuation.continues(#"send c1 text "a \" quote""#))
        #expect(!LineContinuation.continues(#"clock # a comment \"#))
        #expect(!LineContinuation.continues("user set alice"))
    }

    @Test func joinedLinesTokenizeAsOne() throws {
        let backslash = LineContinuation.join(#"send c1 text \"#, #"   "hi""#)
        #expect(try Tokenizer.tokenize(backslash).map(\.text) == ["send", "c1", "text", "hi"])
        let quote = LineContinuation.join(#"send c1 text "two"#, #"lines""#)
        #expect(try Tokenizer.tokenize(quote).last?.text == "two\nlines")
    }
}

@Suite struct WhitespaceTrimmingTests {
    /// Lines are trimmed without Foundation; the result must be Foundation's.
    @Test(arguments: [
        "", " ", "\t", "  \t ", "clock", "  clock advance 1s", "clock advance 1s \t", "\u{A0}send c1 text \"x\"\u{3000}",
        "\u{2003}\u{2003}", "a\u{A0}b", " \n x \n ", "\r\nline\r\n", "é ", " e\u{301}", "\u{200B}x\u{200B}", "🙂 ",
    ])
    func matchesFoundation(_ line: String) {
        #expect(line.trimmingWhitespace == line.trimmingCharacters(in: .whitespaces))
    }
}

/// ASCII lines are read as bytes; the result must be the one reading them
/// as `Character`s gives, errors included.
@Suite struct ASCIILineTests {
    static let lines = [
        "", "clock advance 1s", "  send c1 text \"Hello, doctor\" --reply-to m1 ", #"agent say c1 "she said \"hi\"\nthen\tleft""#,
        #"x 'a\b'"#, "user set alice   # a comment", "login jwt alice <jwt#1>", #"set key="a b" other='c d'"#,
        #"send c1 text "oops"#, #"send c1 text 'oops"#, #"key="open"#, "trailing \\", "tab\tseparated\u{0B}words\u{0C}x", "#",
        #"say "a \" # b""#, "a#b #c",
    ]

    @Test(arguments: lines)
    func tokenizesAsCharacters(_ line: String) {
        #expect(line.isPlainASCII)
        let bytes = Result { () throws(ScriptError) in try Tokenizer.tokenize(units: Array(line.utf8)) }
        let characters = Result { () throws(ScriptError) in try Tokenizer.tokenize(units: Array(line)) }
        #expect(bytes == characters)
    }

    @Test(arguments: lines)
    func continuesAsCharacters(_ line: String) {
        #expect(LineContinuation.scan(line.utf8) == LineContinuation.scan(line))
    }

    @Test(arguments: [
        "client.user", "w1[0].text", "server.messages(c1).count", "server.sessions( alice )", "m1.state", "w1.", "w1[x]", "w1[-1]",
        "w1.(a)", ".x", "w1..state", "a)b", "x(y", "x.y(z", "a-b_c.d9", "w1[2", "a b",
    ])
    func parsesPathsAsCharacters(_ text: String) {
        let bytes = Result { () throws(ScriptError) in try PathExpression.parse(text, units: Array(text.utf8)) }
        let characters = Result { () throws(ScriptError) in try PathExpression.parse(text, units: Array(text)) }
        #expect(bytes == characters)
    }

    @Test func carriageReturnsAndNonASCIIAreReadAsCharacters() {
        #expect(!"a\r\nb".isPlainASCII)
        #expect(!"café".isPlainASCII)
    }
}
