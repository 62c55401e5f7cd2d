import Testing

@testable import Workbench

/// Each client's watcher shows what that client knows (issue 29).
@Suite struct DeviceViewTests {
    /// The phone's link is slow (300 ms each way) and the tablet's is not,
    /// so the server's event reaches the tablet before its answer reaches
    /// the phone: the tablet's watcher then shows "C" as sent (from the
    /// server) while the phone has it sending. It showed the phone's
    /// `sending`, and wrote the tablet's view over the phone's record.
    @Test func aWatcherOnTheTabletNeverShowsThePhonesLocalState() throws {
        let session = try WorkbenchSession(options: WorkbenchOptions())
        var output = ""
        for line in [
            "user set alice", "start conversation", "send c1 text A", "client new tablet", "user set alice", "watch items c1",
            "use client", "net latency 300ms --client client", "send c1 text C",
        ] {
            output = session.execute(line).output
        }
        let lines = output.split(separator: "\n").map(String.init)
        let emission = try #require(lines.firstIndex { $0.contains("w1 emits (fresh, refreshed) 2 items") }, "\(output)")
        let sent = try #require(lines.firstIndex { $0.hasSuffix("m2: sent") }, "\(output)")
        #expect(emission < sent, "the race this test is about did not happen: \(output)")
        #expect(lines[emission].hasSuffix("2 items: m2 sent \"C\" · m1 sent \"A\""), "\(output)")
        let history = session.execute("inspect m2").output
        #expect(history.contains("sending\n") && history.hasSuffix("sent\n"), "\(history)")
        #expect(session.execute("expect m2.author == alice").output.hasPrefix("ok"))
    }

    @Test func netNamesTheClientsWhoseLinkDiffers() throws {
        let session = try WorkbenchSession(options: WorkbenchOptions())
        for line in ["user set alice", "client new tablet", "net offline --client tablet", "net latency 1s --client client"] {
            _ = session.execute(line)
        }
        #expect(session.execute("net").output.hasSuffix("; client: latency 1s; tablet: offline\n"))
        #expect(session.execute("net.online(tablet)").output == "false\n")
        #expect(session.execute("net.online").output == "true\n")
        #expect(session.execute("net offline --client zz").output == "script error: unknown client \"zz\"\n")
    }

    /// `send` into another client's conversation names the client that
    /// sends, or is refused as ambiguous; with several clients the output
    /// says which client sent (it was sent from the conversation's client,
    /// whichever was current, and nothing said so).
    @Test func sendSaysWhichClientSendsAndNeverGuesses() throws {
        let session = try WorkbenchSession(options: WorkbenchOptions())
        for line in [
            "user set alice", "start conversation", "send c1 text A", "client new tablet", "user set alice", "watch conversations",
        ] {
            _ = session.execute(line)
        }
        let ambiguous = session.execute("send c1 text B")
        #expect(ambiguous.status == .scriptError)
        #expect(ambiguous.output.hasPrefix("script error: c1 is client's conversation and tablet is the current client: say which"))
        #expect(session.execute("send c1 text B --client tablet").output.hasPrefix("m2 = text message in c1 from tablet\n"))
        #expect(session.execute("send c1 text C --client client").output.hasPrefix("m3 = text message in c1 from client\n"))
        #expect(session.execute("expect m2.author == alice").output.hasPrefix("ok"))
    }
}
