import ChatTestSupport
import Foundation
import Testing

/// `chatbench explore` and `chatbench shrink` as a user runs them.
@Suite struct ExploreCommandTests {
    static let fragile = "user set alice\nstart conversation\nsend c1 text hi\nexpect m1.state == sent\n"

    @Test func exploreFindsSavesAndShrinksAFailureThatRunReproduces() throws {
        let folder = try TemporaryFolder()
        let script = folder.url.appendingPathComponent("fragile.chat")
        try Self.fragile.write(to: script, atomically: true, encoding: .utf8)
        let out = folder.url.appendingPathComponent("failures").path
        let explore = try ChatbenchBinary.run(["explore", script.path, "--runs", "30", "--faults", "offline", "--out", out, "--jobs", "2"])
        #expect(explore.status == 1, "\(explore.stdout)\(explore.stderr)")
        #expect(explore.stdout.contains("the script's expects"))
        let saved = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(saved.count == 2, "\(saved)")
        let shrunk = try #require(saved.first { $0.hasSuffix("-shrunk.chat") })
        let text = try String(contentsOfFile: "\(out)/\(shrunk)", encoding: .utf8)
        #expect(text.split(separator: "\n").filter { !$0.hasPrefix("#") }.count <= 5, "\(text)")
        let rerun = try ChatbenchBinary.run(["run", "\(out)/\(shrunk)"])
        #expect(rerun.status == 1, "the saved script fails the same way: \(rerun.stdout)")
    }

    @Test func shrinkSaysHowFarItGotAndAPassingScriptHasNothingToShrink() throws {
        let folder = try TemporaryFolder()
        let script = folder.url.appendingPathComponent("failing.chat")
        try ("clock\nclock\n" + "user set alice\nstart conversation\nnet offline\nsend c1 text hi\nexpect m1.state == sent\nclock\n")
            .write(to: script, atomically: true, encoding: .utf8)
        let output = folder.url.appendingPathComponent("small.chat").path
        let shrink = try ChatbenchBinary.run(["shrink", script.path, "-o", output])
        #expect(shrink.status == 0, "\(shrink.stderr)")
        #expect(shrink.stderr.hasPrefix("from 8 lines to "), "\(shrink.stderr)")
        let passing = folder.url.appendingPathComponent("passing.chat")
        try "user set alice\n".write(to: passing, atomically: true, encoding: .utf8)
        let none = try ChatbenchBinary.run(["shrink", passing.path])
        #expect(none.status == 1)
        #expect(none.stderr.contains("does not fail"))
    }

    @Test func anUnknownFaultIsNamed() throws {
        let run = try ChatbenchBinary.run(["explore", "x.chat", "--faults", "offlne"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("unknown fault \"offlne\""))
    }
}
