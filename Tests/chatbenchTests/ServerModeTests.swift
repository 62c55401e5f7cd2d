import ChatTestSupport
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
        #expect(
            run.stdout == """
                script error: clock advance needs the embedded world's virtual time; against a server time is real: use wait or settle
                ok: net.online == true

                """)
        #expect(run.status == 2)
    }

    @Test func anExampleMarkedEmbeddedOnlyIsSkippedAgainstAServer() throws {
        let run = try ChatbenchBinary.run(["test", "--server", "fresh", "examples/08-world.chat", "examples/06-sending.chat"])
        #expect(
            run.stdout == """
                SKIP examples/08-world.chat (shows and moves the embedded world's virtual clock)
                1 passed, 0 failed, 1 skipped

                """)
        #expect(run.status == 0)
    }

    @Test func aSessionRecordedAgainstAServerReplaysFromItsTapeOnceTheServerIsGone() throws {
        let folder = try TemporaryFolder()
        let db = folder.url.appendingPathComponent("sessions.sqlite").path
        var server: RunningServe? = try RunningServe(arguments: ["--db", ":memory:", "--seed", "1"])
        let url = try #require(server?.url)
        let input =
            "user set alice\nwatch conversations\nstart conversation\nsend c1 text \"hi\"\nagent say c1 \"hello\"\nexpect w1[0].count == 2\n"
        let recorded = try ChatbenchBinary.run(["--server", url, "--db", db, "--name", "bug"], input: input)
        #expect(recorded.status == 0, "\(recorded.stdout)\(recorded.stderr)")
        server = nil // stopped: the replay must not need it

        let plain = try ChatbenchBinary.run(["replay", "bug", "--db", db])
        #expect(plain.status == 2)
        #expect(
            plain.stderr.hasPrefix(
                "chatbench: session 1 \"bug\" was recorded against a server (\(url)): replay it from its traffic tape with --tape"))

        let tape = try ChatbenchBinary.run(["replay", "bug", "--tape", "--db", db])
        #expect(tape.status == 0, "\(tape.stdout)\(tape.stderr)")
        #expect(tape.stdout.hasPrefix("session 1 \"bug\": 6 steps replayed from the tape, identical ("), "\(tape.stdout)")

        let listing = try ChatbenchBinary.run(["sessions", "show", "bug", "--traffic", "--db", db])
        // Ids against a server: the session's random component, then the seeded part (issue 13).
        #expect(
            listing.stdout.range(of: #"app-backend    http → agentSay\(c-[0-9a-f]{8}89025cc1, "hello"\)"#, options: .regularExpression)
                != nil,
            "\(listing.stdout)")
        #expect(
            listing.stdout.range(
                of: #"device-client  http → POST /v1/conversations/c-[0-9a-f]{8}89025cc1/messages"#, options: .regularExpression) != nil)
    }
}
