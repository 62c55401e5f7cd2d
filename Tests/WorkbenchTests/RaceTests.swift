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
}
