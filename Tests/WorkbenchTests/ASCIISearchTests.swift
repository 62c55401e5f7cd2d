import ChatSDK
import Foundation
import Testing

@testable import Workbench

@Suite struct ASCIISearchTests {
    @Test(arguments: [
        ("sessions show 3", "sessions", true),
        ("x = record stop", "record", true),
        ("a line ending in record", "record", true),
        ("recorecord", "record", true),
        ("recor", "record", false),
        ("send c1 text \"héllo #1\"", "#", true),
        ("send c1 text \"héllo\"", "#", false),
        ("", "#", false),
        ("anything", "", true),
        ("Sessions", "sessions", false),
        ("$SCRATCH/t.chat", "$SCRATCH", true),
        ("last $SCRATC", "$SCRATCH", false),
        ("$$SCRATCH$SCRATCH", "$SCRATCH", true),
    ])
    func findsWhatFoundationFinds(line: String, word: String, expected: Bool) {
        let found: Bool
        switch word {
        case "sessions": found = line.containsASCII("sessions")
        case "record": found = line.containsASCII("record")
        case "#": found = line.containsASCII("#")
        case "$SCRATCH": found = line.containsASCII("$SCRATCH")
        default: found = line.containsASCII("")
        }
        #expect(found == expected)
        #expect(found == (word.isEmpty || line.contains(word)))
    }

    @Test func aSubstringIsSearchedWithinItsBounds() {
        let line = "record sessions"
        #expect(!line.dropFirst(7).containsASCII("record"))
        #expect(line.dropLast(9).containsASCII("record"))
        #expect(!line.dropLast(1).containsASCII("sessions"))
    }

    @Test func aPlaceholderIsFoundOnlyWhereOneIs() {
        #expect(Replayer.unknownPlaceholder(in: "expected \"<jwt#2>\"") == "<jwt#2>")
        #expect(Replayer.unknownPlaceholder(in: "# a comment, no placeholder") == nil)
        #expect(Replayer.unknownPlaceholder(in: "no hash at all <jwt>") == nil)
    }
}
