import Foundation
import Testing

/// The workbench against a separately running `chatbench serve` (`--server URL`).
@Suite struct ServerModeTests {
    @Test func theWalkingSkeletonPassesAgainstARunningServer() throws {
        let server = try RunningServe(arguments: ["--db", ":memory:", "--seed", "1"])
        let url = try #require(server.url, "serve said: \(server.firstLine)")
        let run = try ChatbenchBinary.run(["test", "--server", url, "examples/01-walking-skeleton.chat"])
        #expect(run.stdout == "1 passed, 0 failed\n", "stderr: \(run.stderr)")
        #expect(run.status == 0)
    }

    @Test func verbsOfVirtualTimeExplainTheyNeedTheEmbeddedWorld() throws {
        let server = try RunningServe(arguments: ["--db", ":memory:"])
        let url = try #require(server.url)
        let run = try ChatbenchBinary.run(["--server", url, "--no-record"], input: "clock advance 1s\nexpect net.online == true\n")
        #expect(run.stdout == """
            script error: clock advance needs the embedded world's virtual time; against a server time is real: use wait or settle
            ok: net.online == true

            """)
        #expect(run.status == 2)
    }

    @Test func anExampleMarkedEmbeddedOnlyIsSkippedAgainstAServer() throws {
        let run = try ChatbenchBinary.run(["test", "--server", "fresh", "examples/08-world.chat", "examples/06-sending.chat"])
        #expect(run.stdout == """
            SKIP examples/08-world.chat (shows and moves the embedded world's virtual clock)
            1 passed, 0 failed, 1 skipped

            """)
        #expect(run.status == 0)
    }
}
