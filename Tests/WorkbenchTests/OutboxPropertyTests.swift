import ChatCore
import ChatSimulation
import Testing

@testable import Workbench

/// D6/D7: whatever happens to the network and the app, no message is lost or
/// duplicated, and each conversation's messages reach the server in the
/// order they were sent (failed ones, retried later, excepted). The faults
/// come from explore's schedules (one way to generate faults), many to a
/// run; explore's invariants check delivery and order after the world
/// healed, and once every failed message is retried, every one is sent.
@Suite struct OutboxPropertyTests {
    static let sends = 40

    /// Two conversations and sends to them, in an order drawn once.
    static let script: [String] = {
        var random = SeededRandom(seed: 7919)
        return ["user set alice", "start conversation", "start conversation"]
            + (0..<sends).map { "send c\(1 + random.next() % 2) text s\($0)" }
    }()

    @Test(arguments: 0..<12)
    func faultsNeverLoseDuplicateOrReorder(run: Int) throws {
        try check(kinds: [.offline, .fail, .drop, .restart, .clock], run: run)
    }

    /// Cuts inside a step's work, before or after the server's commit
    /// (issue 29): an answer lost after the commit is the one that makes
    /// duplicates, unless the resend is de-duplicated.
    @Test(arguments: 0..<6)
    func cutsInFlightNeverLoseDuplicateOrReorder(run: Int) throws {
        try check(kinds: [.cut, .fail, .drop], run: run)
    }

    func check(kinds: Set<FaultSchedule.Kind>, run: Int) throws {
        let schedule = FaultSchedule.draw(seed: 1, run: run, steps: Self.script.count, kinds: kinds, count: 20...30)
        let messages = (1...Self.sends).map { "m\($0)" }
        let lines =
            schedule.apply(to: Self.script) + FaultSchedule.heal
            + messages.map { "retry \($0)" } + FaultSchedule.heal
            + messages.map { "expect \($0).state == sent" }
        let violations = try Explorer.check(lines, seed: 1)
        #expect(violations.isEmpty, "\(violations) in\n\(lines.joined(separator: "\n"))")
    }
}
