import ChatTestSupport
import Foundation
import Testing

@testable import chatbench

/// Long output at a terminal goes through a pager, as psql's does (issue 30).
@Suite struct PagerTests {
    @Test func theEnvironmentNamesThePagerAndAnEmptyOneTurnsItOff() {
        #expect(Pager.fromEnvironment(["CHATBENCH_PAGER": "most", "PAGER": "more"])?.command == "most")
        #expect(Pager.fromEnvironment(["PAGER": "more -s"])?.command == "more -s")
        #expect(Pager.fromEnvironment(["CHATBENCH_PAGER": "", "PAGER": "more"]) == nil)
        #expect(Pager.fromEnvironment(["PAGER": " "]) == nil)
        #expect(Pager.fromEnvironment([:], lessIsInstalled: { true })?.command == "less -FRX")
        #expect(Pager.fromEnvironment([:], lessIsInstalled: { false }) == nil)
    }

    @Test func outputIsTallerWhenItsLinesTakeMoreRowsThanTheTerminalHas() {
        let ten = String(repeating: "line\n", count: 10)
        #expect(!Pager.isTaller(ten, rows: 11, columns: 80))
        #expect(Pager.isTaller(ten, rows: 10, columns: 80))
        // A line of 200 characters takes three rows of 80.
        let long = String(repeating: "x", count: 200) + "\n" + String(repeating: "line\n", count: 7)
        #expect(Pager.isTaller(long, rows: 10, columns: 80))
        #expect(!Pager.isTaller(long, rows: 11, columns: 80))
        #expect(!Pager.isTaller("", rows: 1, columns: 80))
    }

    @Test func theOutputGoesThroughThePagerWhole() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("paged.txt")
        let text = (1...5_000).map { "line \($0) of the output\n" }.joined()
        #expect(Pager(command: "cat > '\(file.path)'").page(text))
        #expect(try String(contentsOf: file, encoding: .utf8) == text)
        // A pager that stops reading (q in less) ends paging, not chatbench.
        #expect(Pager(command: "head -c 10 >/dev/null").page(text))
    }
}
