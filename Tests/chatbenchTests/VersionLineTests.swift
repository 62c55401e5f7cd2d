import Testing

@testable import chatbench

/// `chatbench --version` is answered before the parser runs
/// (`Chatbench.versionLine`): the same answer, and only for that line.
@Suite struct VersionLineTests {
    @Test func versionAloneIsAnsweredAsTheParserAnswersIt() {
        var parsers: String?
        do {
            _ = try Chatbench.parseAsRoot(["--version"])
        } catch {
            parsers = Chatbench.fullMessage(for: error)
        }
        #expect(parsers == "chatbench 0.1.0")
        #expect(Chatbench.versionLine(for: ["--version"]) == parsers)
    }

    @Test func anyOtherLineGoesToTheParser() {
        #expect(Chatbench.versionLine(for: []) == nil)
        #expect(Chatbench.versionLine(for: ["--version", "--no-record"]) == nil)
        #expect(Chatbench.versionLine(for: ["repl", "--version"]) == nil)
        #expect(Chatbench.versionLine(for: ["--help"]) == nil)
    }
}
