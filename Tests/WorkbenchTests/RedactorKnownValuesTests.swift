import Foundation
import Testing

@testable import ChatSDK
@testable import Workbench

/// A secret is a value, not a shape (W6, issue 30): once an option's value
/// is redacted in a step's input, it is redacted wherever it shows up after,
/// however it was formatted (a request body on the tape, an event line).
@Suite struct RedactorKnownValuesTests {
    @Test(arguments: [Redactor.Engine.scanner, .expressions])
    func anOptionsValueIsRedactedWhereverItShowsUpAfter(engine: Redactor.Engine) {
        let redactor = Redactor(engine: engine)
        let input = redactor.redact("authorize bob --token tok-9f8e7d6c5b4a3f2e --header X-Gateway-Session=gw-secret-31337")
        #expect(input == "authorize bob --token <secret#2> --header <secret#1>")
        let body = #"{"request":{"connectAccessToken":{"accessToken":"tok-9f8e7d6c5b4a3f2e","userId":"bob"}}}"#
        let redacted = String(decoding: redactor.redact(body: Data(body.utf8)), as: UTF8.self)
        #expect(redacted == #"{"request":{"connectAccessToken":{"accessToken":"<secret#2>","userId":"bob"}}}"#)
        // A header option's value travels alone, as a header field's value.
        #expect(redactor.redact("X-Gateway-Session: gw-secret-31337") == "X-Gateway-Session: <secret#1>")
        // A value with none of the patterns' marks is still found.
        _ = redactor.redact("login jwt alice --secret hunter2hunter2")
        #expect(redactor.redact("said hunter2hunter2 twice: hunter2hunter2") == "said <secret#3> twice: <secret#3>")
        // Placeholders still reveal to the whole value.
        #expect(redactor.reveal("--header <secret#1>") == "--header X-Gateway-Session=gw-secret-31337")
    }

    /// The redactor lives in ChatSDK (the flight recorder uses it too), so it
    /// cannot read the command table: its lists must be the table's.
    @Test func theSecretOptionsAreTheCommandTablesOnes() {
        let options = CommandTable.standard.specs.flatMap(\.options).filter(\.secret)
        #expect(Redactor.secretOptions == Set(options.map { String($0.name.dropFirst(2)) }).sorted())
        #expect(Redactor.valueNames == Set(options.map(\.valueName)))
    }

    /// An argument the command table marks secret (`server app new KEY`)
    /// has no option name for a pattern to find: the session asks the
    /// interpreter for it, so the key is a placeholder from the line that
    /// types it on, in the history too, and wherever it is typed after.
    @Test func aSecretArgumentIsRedactedFromTheLineThatTypesIt() throws {
        let session = try WorkbenchSession(options: WorkbenchOptions())
        #expect(session.historyLine(for: "server app new my-app-key-777") == "server app new <secret#1>")
        #expect(session.historyLine(for: "client new other --api-key my-app-key-777") == "client new other --api-key <secret#1>")
        #expect(session.redact(#"{"apiKey":"my-app-key-777"}"#) == #"{"apiKey":"<secret#1>"}"#)
        #expect(session.historyLine(for: "server app new \"\"") == "server app new \"\"")
        #expect(session.historyLine(for: "server app nw x-key-1234") == "server app nw x-key-1234")
        // An exported transcript's placeholder stays as it is.
        #expect(session.historyLine(for: "server app new <secret#7>") == "server app new <secret#7>")
    }

    /// A known value is found wherever it starts, after false starts of
    /// itself, at a text's first and last byte, and not where a text ends
    /// with only its beginning (issue 31: looked for with `memchr`).
    @Test(arguments: [Redactor.Engine.scanner, .expressions])
    func aKnownValueIsFoundWhereverItStarts(engine: Redactor.Engine) {
        let redactor = Redactor(engine: engine)
        #expect(redactor.redact("x --secret pa55pa55word") == "x --secret <secret#1>")
        let cases = [
            ("pa55pa55word", "<secret#1>"), ("pa55pa55pa55word!", "pa55<secret#1>!"), ("pa55pa55wor", "pa55pa55wor"),
            ("ppa55pa55word pa55pa55word", "p<secret#1> <secret#1>"), ("p", "p"), ("", ""),
        ]
        for (text, redacted) in cases {
            #expect(redactor.redact(text) == redacted)
            #expect(String(decoding: redactor.redact(body: Data(text.utf8)), as: UTF8.self) == redacted)
        }
    }

    @Test func shortValuesAreNotReplacedInOrdinaryText() {
        let redactor = Redactor()
        _ = redactor.redact("x --token abc")
        #expect(redactor.redact("abc def abc") == "abc def abc")
    }
}
