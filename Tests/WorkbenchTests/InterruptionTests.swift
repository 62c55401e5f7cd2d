import Testing

@testable import Workbench

/// No process-wide interruption (issue 29, Shape): each session is stopped
/// by the one it is given, and only by that one.
@Suite struct InterruptionTests {
    @Test func aSessionIsStoppedOnlyByItsOwnInterruption() throws {
        let other = try WorkbenchSession(options: WorkbenchOptions())
        let session = try WorkbenchSession(options: WorkbenchOptions())
        #expect(other.options.interruption !== session.options.interruption)
        _ = session.execute("user set alice")
        _ = session.execute("start conversation")
        // Another session's interruption, due at once, stops nothing here
        // (with one for the whole process, it stopped this send).
        other.options.interruption.stop(atTick: other.options.interruption.ticks + 1)
        #expect(session.execute("send c1 text hello").status == .ok)
        other.options.interruption.stop(atTick: nil)
    }
}
