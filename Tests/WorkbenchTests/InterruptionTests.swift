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

    /// A send interrupted on its way, then the session reset (or ended):
    /// the old interpreter shuts its clients down, and the send's state
    /// changes reach its log handlers while it is being freed. They held it
    /// unowned, which trapped ("an unowned reference … already destroyed");
    /// they hold it weakly now, and the new session goes on.
    @Test func aStepInterruptedMidSendThenAResetDoesNotCrash() throws {
        let session = try WorkbenchSession(options: WorkbenchOptions())
        _ = session.execute("user set alice")
        _ = session.execute("start conversation")
        _ = session.execute("watch items c1")
        let interruption = session.options.interruption
        interruption.stop(atTick: interruption.ticks + 3)
        #expect(session.execute("send c1 text hello").status == .interrupted)
        interruption.stop(atTick: nil)
        let reset = session.execute("reset")
        #expect(reset.status == .ok, "\(reset.output)")
        #expect(session.execute("user set bob").status == .ok)
    }
}
