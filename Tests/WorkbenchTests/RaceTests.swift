import ChatSimulation
import Testing

@testable import Workbench

/// Races (issue 29): `&` leaves a command's work in flight, and the clock
/// moves through it only as far as it is told.
@Suite struct RaceTests {
    @Test func aCommandWithAnAmpersandLeavesItsWorkInFlight() throws {
        let session = try WorkbenchSession(options: WorkbenchOptions())
        for line in ["user set alice", "start conversation", "send c1 text A"] { _ = session.execute(line) }
        let started = session.execute("send c1 text B &").output
        #expect(started.hasPrefix("m2 = text message in c1\n"), "\(started)")
        #expect(!started.contains("m2: sent"), "\(started)")
        #expect(session.execute("m2.state").output == "\"sending\"\n")
        // The clock stops at its target, the request still on the wire.
        _ = session.execute("clock advance 5ms")
        #expect(session.execute("m2.state").output == "\"sending\"\n")
        #expect(session.execute("clock advance 1s").output.contains("m2: sent"))
        // An ampersand alone, or quoted, is no such mark.
        #expect(session.execute("send c1 text \"&\"").output.hasPrefix("m3 = text message in c1\n"))
        #expect(session.execute("m3.text").output == "\"&\"\n")
    }

    /// `wait HANDLE done` finishes what `&` left in flight: a message sent
    /// or failed, a watcher done refreshing; it says how it ended.
    @Test func waitDoneFinishesWhatAnAmpersandStarted() throws {
        let session = try WorkbenchSession(options: WorkbenchOptions())
        for line in ["user set alice", "start conversation", "send c1 text A", "send c1 text B &", "w1 = watch conversations &"] {
            _ = session.execute(line)
        }
        #expect(session.execute("m2.state").output == "\"sending\"\n")
        #expect(session.execute("w1.state").output == "\"refreshing\"\n")
        let sent = session.execute("wait m2 done")
        #expect(sent.status == .ok && sent.output.hasSuffix("for m2 to be done (sent or failed): sent\n"), "\(sent.output)")
        #expect(session.execute("wait w1 done").output.hasSuffix("for w1 to be done refreshing: refreshed\n"))
        _ = session.execute("net offline")
        _ = session.execute("client new tablet --no-auto-resend")
        _ = session.execute("user set alice")
        _ = session.execute("start conversation")
        _ = session.execute("send c2 text C &")
        #expect(session.execute("wait m3 done").output.hasSuffix(": failed\n"))
        #expect(
            session.execute("wait m3 done now").output == "script error: wait m3 done takes no value, got \"now\": write wait m3 done\n")
        #expect(session.execute("wait m3 state").output == "script error: wait m3 state needs a value, as in wait m3 state sent\n")
    }

    /// `--in-flight` loses the requests on the wire at a point (issue 29)
    /// and says in one line what it lost and where.
    @Test func aCutInFlightSaysWhatItLost() throws {
        let session = try WorkbenchSession(options: WorkbenchOptions())
        for line in ["user set alice", "start conversation", "send c1 text A", "send c1 text B &", "clock advance 10ms"] {
            _ = session.execute(line)
        }
        let cut = session.execute("net offline --in-flight after-commit").output
        #expect(cut.hasPrefix("network offline\nlost 1 request in flight after the server committed it: sendMessage\n"), "\(cut)")
        #expect(session.execute("expect server.messages(c1).count == 2").status == .ok)
        #expect(session.execute("m2.state").output == "\"toBeSent\"\n")
        _ = session.execute("net online")
        #expect(session.execute("m2.state").output == "\"sent\"\n")
        #expect(session.execute("expect server.messages(c1).count == 2").status == .ok, "the resend is de-duplicated")
        #expect(
            session.execute("net drop --in-flight later").output
                == "script error: --in-flight must be one of before-commit, after-commit, got \"later\"\n")
    }

    @Test func whatACutLostIsOneLine() {
        #expect(InFlightCut.describe([]) == "no request was in flight")
        #expect(InFlightCut.describe([], of: " of tablet") == "no request of tablet was in flight")
        #expect(
            InFlightCut.describe([("sendMessage", .afterCommit)], of: " of tablet")
                == "lost 1 request of tablet in flight after the server committed it: sendMessage")
        #expect(
            InFlightCut.describe([("sendMessage", .beforeCommit)])
                == "lost 1 request in flight before it reached the server: sendMessage")
        #expect(
            InFlightCut.describe([("sendMessage", .afterCommit), ("listMessages", .afterCommit)])
                == "lost 2 requests in flight after the server committed them: sendMessage, listMessages")
        #expect(
            InFlightCut.describe([("sendMessage", .beforeCommit), ("listMessages", .afterCommit)])
                == "lost 2 requests in flight: sendMessage before it reached the server, listMessages after the server committed it")
    }
}
