import Testing
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

    @Test func unbalancedQuoteNamesItsColumn() {
        #expect(throws: ScriptError("unterminated quote: the string starting at column 14 has no closing \"")) {
            try Tokenizer.tokenize(#"send c1 text "oops"#)
        }
    }
}

@Suite struct DurationTests {
    @Test(arguments: [("500ms", 500), ("30s", 30_000), ("10m", 600_000), ("2h", 7_200_000), ("1d", 86_400_000), ("1m30s", 90_000)])
    func parses(text: String, milliseconds: Int64) throws {
        #expect(try DurationParser.parse(text).wholeMilliseconds == milliseconds)
    }

    @Test(arguments: ["10x", "", "ms", "5", "-3s", "1.5s", "99999999999h"])
    func refuses(text: String) {
        #expect(throws: ScriptError.self) { try DurationParser.parse(text) }
    }

    @Test func formatsTheShortestSpelling() {
        #expect(DurationParser.format(.milliseconds(5_400_250)) == "1h30m250ms")
        #expect(DurationParser.format(.zero) == "0s")
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

    @Test func editDistance() {
        #expect(Suggestion.editDistance("kitten", "sitting") == 3)
        #expect(Suggestion.editDistance("", "abc") == 3)
        #expect(Suggestion.editDistance("sned", "send") == 1)
    }
}

@Suite struct ComparisonTests {
    @Test func comparesNumbersStringsAndLists() {
        #expect(Comparison.equal.holds(.int(3), .int(3)))
        #expect(Comparison.less.holds(.int(2), .int(10)))
        #expect(!Comparison.less.holds(.string("10"), .int(2)))
        #expect(Comparison.greaterOrEqual.holds(.int(2), .int(2)))
        #expect(Comparison.notEqual.holds(.string("sent"), .string("failed")))
        #expect(Comparison.contains.holds(.list([.string("alice"), .string("bob")]), .string("bob")))
        #expect(Comparison.contains.holds(.string("Hello, doctor"), .string("doctor")))
        #expect(Comparison.equal.holds(.none, .none))
        #expect(!Comparison.equal.holds(.none, .string("x")))
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
        #expect(redactor.redact(#"{"accessToken":"at-59320dd7","refreshToken":"rt-0123456789abcdef0123456789abcdef"}"#)
                == #"{"accessToken":"<token#3>","refreshToken":"<token#2>"}"#)
        #expect(redactor.redact("a first-rate start-up at-home") == "a first-rate start-up at-home")
        #expect(redactor.redact("send c1 text hello") == "send c1 text hello")
        // The tape's envelopes: the API key is a secret too (issue 13).
        #expect(redactor.redact(#"{"accessToken":null,"apiKey":"demo-key","deviceId":"d1"}"#)
            == #"{"accessToken":null,"apiKey":"<secret#3>","deviceId":"d1"}"#)
        #expect(redactor.redact(#"{"apiKey":"demo-key"}"#) == #"{"apiKey":"<secret#3>"}"#)
    }
}
