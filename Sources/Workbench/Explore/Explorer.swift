import Foundation

/// Runs a script under many seeded fault schedules and checks the
/// invariants after each run (`chatbench explore`).
package struct Explorer: Sendable {
    package var seed: UInt64 = 1
    package var runs = 200
    package var kinds = FaultSchedule.Kind.defaults
    /// Whether the script's own `expect` lines count.
    package var checkExpects = true
    /// The longest a run may take in virtual time (see `budget(for:)`).
    package var budget: Duration = .seconds(7 * 86_400)

    package init() {}

    /// One run: its number, the lines it ran, and what did not hold.
    package struct Run: Sendable, Hashable, Codable {
        package var number: Int
        /// The script's lines with the run's faults among them.
        package var body: [String]
        /// What it ran after them: the heal (``FaultSchedule/heal``), or
        /// nothing.
        package var ending: [String]
        package var violations: [Violation]
        package var failed: Bool { !violations.isEmpty }
        /// All the lines it ran: its body, then its ending.
        package var lines: [String] { body + ending }

        package init(number: Int, body: [String], ending: [String] = [], violations: [Violation]) {
            self.number = number
            self.body = body
            self.ending = ending
            self.violations = violations
        }
    }

    /// The run numbers of shard `index` of `count` (1-based): every
    /// `count`th run, starting at run `index - 1`, so that the shards
    /// together are the unsharded exploration, run for run.
    package static func shard(runs: Int, index: Int, of count: Int) -> [Int] {
        Array(stride(from: index - 1, to: runs, by: count))
    }

    /// Runs `lines` once under the schedule of run `number`.
    package func run(_ lines: [String], number: Int) throws -> Run {
        var run = planned(lines, run: number)
        run.violations = try Self.check(run.lines, seed: seed, expects: checkExpects, budget: budget)
        return run
    }

    /// Run `number` of `lines` before it runs (no violations yet): `lines`
    /// with its faults, then the heal.
    package func planned(_ lines: [String], run number: Int) -> Run {
        let clients = FaultSchedule.clients(in: lines)
        let faults = FaultSchedule.draw(seed: seed, run: number, steps: lines.count, kinds: kinds, clients: clients)
        return Run(number: number, body: faults.apply(to: lines), ending: FaultSchedule.heal, violations: [])
    }

    /// A run's budget: what the script takes without faults, plus a day.
    package func budget(for lines: [String]) throws -> Duration {
        var options = WorkbenchOptions()
        options.seed = seed
        let session = try WorkbenchSession(options: options)
        for line in lines + FaultSchedule.heal { _ = session.execute(line) }
        return session.elapsed + .seconds(86_400)
    }

    /// Runs `lines` in a fresh embedded world and returns what did not hold:
    /// the first failed expect or script error, then the invariants.
    package static func check(_ lines: [String], seed: UInt64, expects: Bool = true, budget: Duration = .seconds(7 * 86_400)) throws
        -> [Violation]
    {
        var options = WorkbenchOptions()
        options.seed = seed
        let session = try WorkbenchSession(options: options)
        var found: [Violation] = []
        for line in lines {
            let step = session.execute(line)
            switch step.status {
            case .expectFailed where expects && found.isEmpty:
                found.append(Violation(invariant: .expects, detail: Self.failure(of: line, step), referents: session.referents(of: line)))
            case .scriptError where expects && found.isEmpty:
                // Under faults a script's assumptions (a handle, an index)
                // can fail to hold: that is the script's, not the SDK's.
                found.append(Violation(invariant: .scriptError, detail: Self.failure(of: line, step)))
            default: break
            }
            if step.status == .quit { break }
        }
        return found + session.violations(budget: budget)
    }

    /// A failed line with what it found (an expect: `expect m1.state ==
    /// sent — expected == "sent", found "toBeSent"`) or why it failed (a
    /// script error: `send c9 text hi — unknown conversation "c9"`): the
    /// same line failing another way is another failure (issue 29: an
    /// expect shrunk to itself alone, failing for want of what came before).
    static func failure(of line: String, _ step: StepResult) -> String {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        return step.failure.map { "\(trimmed) — \($0)" } ?? trimmed
    }

    /// The signature a shrunk script must keep: the first violation's
    /// invariant, and for an expect or a script error, its line and what it
    /// found or why it failed; for a crash, how it ended and the runtime's
    /// message (``CrashMessage``).
    package static func signature(of violations: [Violation]) -> FailureSignature? {
        guard let first = violations.first else { return nil }
        switch first.invariant {
        case .expects, .scriptError: return .violation(first.invariant, detail: first.detail, referents: first.referents)
        case .crash: return .violation(.crash, detail: first.detail)
        default: return .violation(first.invariant)
        }
    }

    /// What of a failing run shrinking may cut, and the ending it keeps:
    /// for an invariant checked after the heal, the heal stays whole at the
    /// end (without it the invariant breaks for a reason of its own, a
    /// world never healed); an expect, a script error, a crash or a hang
    /// keep none (the line that crashes or hangs may be anywhere).
    package static func shrinkable(_ run: Run) -> (body: [String], ending: [String]) {
        let afterHeal = ![.expects, .scriptError, .crash, .hang].contains(run.violations.first?.invariant)
        return afterHeal ? (run.body, run.ending) : (run.lines, [])
    }

    /// The script a failure is saved as: its seed, what failed, its lines.
    package static func script(_ run: Run, seed: UInt64, from source: String) -> String {
        var text = "# seed: \(seed)\n"
        text += "# explore: run \(run.number) of \(source) under seed \(seed)\n"
        for violation in run.violations { text += "# violated: \(violation)\n" }
        return text + run.lines.joined(separator: "\n") + "\n"
    }
}
