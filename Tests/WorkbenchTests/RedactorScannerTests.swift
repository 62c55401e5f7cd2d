import ChatCore
import Foundation
import Testing

@testable import ChatSDK
@testable import Workbench

/// The redactor's byte scanner must give what its regular expressions give,
/// byte for byte, placeholders numbered alike: each case runs a session's
/// worth of lines through a redactor of each engine and compares every line.
@Suite struct RedactorScannerTests {
    /// Lines with the secrets the workbench meets, and the near misses.
    static let corpus = [
        "login jwt alice eyJhbGciOiJIUzI1NiJ9.eyJleHRlcm5hbF9pZCI6ImFsaWNlIn0.c2lnbmF0dXJl",
        "again eyJhbGciOiJIUzI1NiJ9.eyJleHRlcm5hbF9pZCI6ImFsaWNlIn0.c2lnbmF0dXJl and eyJa.eyJb. and eyJa.eyJb.c.d",
        "eyJ.eyJ.", "eyJ.eyJ", "eyJa..eyJb.c", "xeyJa.eyJb.c-_x!", "eyJeyJ.eyJ.eyJ.eyJ.",
        "login jwt bob --secret hunter22", "x --secret \"two words\"", "x --secret 'two words' --token=t0k --header a=b",
        "x --secret \"open quote", "x --secret 'open", "x --secret= spaced", "x --secret=", "x --secret", "x --secret   ",
        "x --secretive value", "x ---secret value", "x --secret\tvalue\n", "x --secret \"\"", "x --secret ''", "x --secret '\"'\"",
        "usage: login jwt USER [--secret S] [--token T]", "[--secret S)]", "--secret <secret#1>", "--secret \"<x>\"",
        "--token --secret x", "--signature=9f86d081 --signature 9f86d081", "--header Cookie=sid=abc", "--secret \"a\nb\" c",
        "token at_0123456789abcdef", "at-1234567", "at-12345678", "at-12345678_", "_at-12345678", "xat-12345678",
        "-at-12345678-", "rt-0123456789abcdef0123456789abcdef", "st_abcdefgh ak-ABCDEFGH9", "at-abcdefghat-12345678",
        "a first-rate start-up at-home", "send c1 text hello", "at-12345678.rt-87654321,st-abcdefgh;ak-hgfedcba",
        #"{"accessToken":"at-59320dd7","refreshToken":"rt-0123456789abcdef0123456789abcdef"}"#,
        #"{"accessToken":null,"apiKey":"demo-key","deviceId":"d1"}"#, #"{"apiKey":"demo-key"}"#, #"{"apiKey":""}"#,
        #"{"apiKey":"<secret#1>"}"#, #"{"apiKey":"a\"b"}"#, #"{"apiKey":"open"#, #"{"apiKey": "spaced"}"#,
        #"{"apiKey":"x\"apiKey":"y"}"#, #"{"signature":"9f86d081","userId":"u-1"}"#, #""signature":"""#,
        #"{"connectUserId":{"signature":"9f86d081","userId":"u-1"}}"#, "authorize u-1 --signature 9f86d081",
        "line one\r\n--secret x\r\nat-12345678\r\n", "\"apiKey\":\"a\r\nb\"", "", "_", "--", "t-", "k-", "y\"", "re\"",
    ]

    @Test func theCorpusRedactsAlike() {
        expectAlike(Self.corpus)
        // Each line in a session of its own too: numbering starts afresh.
        for line in Self.corpus { expectAlike([line]) }
    }

    /// Every ASCII byte around each pattern: the scanner's character classes.
    @Test func everyASCIIByteRedactsAlike() {
        var lines: [String] = []
        for byte in UInt8(0)..<0x80 {
            let c = String(UnicodeScalar(byte))
            lines += [
                "--secret\(c)x", "--secret=\(c)x", "--secret \(c)x\(c)y", "at-12345678\(c)", "\(c)at-12345678", "at\(c)12345678",
                "at-1234\(c)5678", "\"apiKey\":\"a\(c)\"", "\"apiKey\":\"\(c)", "eyJa\(c)eyJb.c", "eyJa.eyJb\(c)c", "eyJa.eyJb.c\(c)d",
                "--secret \(c)v\(c)", "x \(c)[--secret S\(c)",
            ]
        }
        expectAlike(lines)
    }

    /// Text that is not ASCII goes to the expressions: the same result.
    @Test func nonASCIIRedactsAlike() {
        expectAlike([
            "é at-12345678é", "at-12345678\u{301}x", "--secret\u{A0}café", "--secret\u{3000}x", "\"apiKey\":\"🙂\"",
            "eyJé.eyJa.b", "message “at-12345678”", "--token\u{85}x",
        ])
    }

    /// Random lines made of the patterns' pieces.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func randomLinesRedactAlike(seed: UInt64) {
        let pieces = [
            "eyJ", "eyJhbGci", ".", "--", "--secret", "--token", "--header", "--signature", "secret", "=", " ", "  ", "\t", "\n",
            "\r\n", "\"", "'", "at-", "rt_", "st-", "ak-", "at", "-", "_", "12345678", "abcdEFGH", "x", "0", "\\", "<", ">", "]",
            ")", "S", "T", "\"apiKey\":\"", "\"signature\":\"", "apiKey", "\":\"", "{", "}", ",", "é", "\u{A0}", "#", "<secret#1>",
        ]
        var random = SeededRandom(seed: seed)
        var lines: [String] = []
        for _ in 0..<400 {
            let length = Int.random(in: 1...14, using: &random)
            lines.append((0..<length).map { _ in pieces.randomElement(using: &random)! }.joined())
        }
        expectAlike(lines)
        expectAlike(lines.filter { $0.utf8.allSatisfy { $0 < 0x80 } })
    }

    /// The tape's bodies: bytes in, bytes out; text that is not UTF-8 is
    /// replaced by what it is, a byte order mark is read as the expressions' path reads it.
    @Test func bodiesRedactAlike() {
        var bodies = Self.corpus.map { Data($0.utf8) }
        bodies += [
            Data([0xFF, 0xFE, 0x41]), Data([0xEF, 0xBB, 0xBF]) + Data(#"{"apiKey":"k"}"#.utf8), Data(), Data("é at-12345678".utf8),
        ]
        let scanner = Redactor(engine: .scanner)
        let expressions = Redactor(engine: .expressions)
        for body in bodies {
            #expect(scanner.redact(body: body) == expressions.redact(body: body), "\(Array(body))")
        }
        #expect(scanner.redact(body: Data([0xFF, 0x41])) == Data("<not text: 2 bytes>".utf8))
    }

    private func expectAlike(_ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let scanner = Redactor(engine: .scanner)
        let expressions = Redactor(engine: .expressions)
        for line in lines {
            let scanned = scanner.redact(line)
            let expected = expressions.redact(line)
            #expect(Array(scanned.utf8) == Array(expected.utf8), "\(line.debugDescription)", sourceLocation: sourceLocation)
        }
    }
}
