import Testing

@testable import Workbench

/// Explore and shrink: schedules from a seed, invariants after each run,
/// and the smallest script that still fails the same way.
@Suite struct ExploreTests {
    static let fragile = ["user set alice", "start conversation", "send c1 text hi", "expect m1.state == sent"]

    @Test func aScheduleIsTheSameForTheSameSeedAndRun() {
        let kinds = Set(FaultSchedule.Kind.allCases)
        let a = FaultSchedule.draw(seed: 7, run: 3, steps: 10, kinds: kinds)
        #expect(a == FaultSchedule.draw(seed: 7, run: 3, steps: 10, kinds: kinds))
        let others = (0..<20).map { FaultSchedule.draw(seed: 7, run: $0, steps: 10, kinds: kinds) }
        #expect(Set(others).count > 10, "runs differ")
    }

    @Test func aScheduleUsesOnlyTheKindsAsked() {
        for run in 0..<50 {
            let verbs = FaultSchedule.draw(seed: 1, run: run, steps: 6, kinds: [.fail, .drop]).before.values.flatMap { $0 }
            #expect(verbs.allSatisfy { $0.hasPrefix("net fail") || $0 == "net drop" }, "\(verbs)")
        }
    }

    @Test func anOfflineWindowEndsWithTheNetworkBack() {
        for run in 0..<50 {
            let lines = FaultSchedule.draw(seed: 2, run: run, steps: 5, kinds: [.offline]).apply(to: Array(repeating: "clock", count: 5))
            let offline = lines.filter { $0.hasPrefix("net offline") }.count
            let online = lines.filter { $0 == "net online" }.count
            #expect(offline == online, "\(lines)")
        }
    }

    /// `cut` (issue 29): the network down inside a step's work, its requests
    /// on the wire lost before or after the commit; drawn only when named.
    @Test func aCutLosesTheRequestsOnTheWireAndEndsWithTheNetworkBack() {
        var points = Set<String>()
        for run in 0..<30 {
            let lines = FaultSchedule.draw(seed: 2, run: run, steps: 5, kinds: [.cut]).apply(to: Array(repeating: "clock", count: 5))
            let cuts = lines.filter { $0.hasPrefix("net offline --after ") }
            #expect(cuts.count == lines.filter { $0 == "net online" }.count, "\(lines)")
            for cut in cuts { points.insert(String(cut.split(separator: " ").last!)) }
        }
        #expect(points == ["before-commit", "after-commit"])
        #expect(!FaultSchedule.Kind.defaults.contains(.cut) && FaultSchedule.Kind.defaults.count == FaultSchedule.Kind.allCases.count - 1)
    }

    @Test func aCleanRunHoldsEveryInvariant() throws {
        #expect(try Explorer.check(Self.fragile + FaultSchedule.heal, seed: 1).isEmpty)
    }

    @Test func exploreFindsTheFragileScriptUnderAnOfflineWindow() throws {
        var explorer = Explorer()
        explorer.kinds = [.offline]
        let failing = try (0..<40).map { try explorer.run(Self.fragile, number: $0) }.filter(\.failed)
        #expect(!failing.isEmpty)
        #expect(failing.allSatisfy { $0.violations[0].invariant == .expects })
        #expect(failing.allSatisfy { $0.lines.contains { $0.hasPrefix("net offline") } })
        // The saved script reproduces the failure exactly.
        let run = try #require(failing.first)
        #expect(try Explorer.check(run.lines, seed: 1) == run.violations)
    }

    @Test func invariantsIgnoreWhatAScriptExpectsWhenAsked() throws {
        let lines = Self.fragile + ["expect m1.state == failed"] + FaultSchedule.heal
        #expect(try Explorer.check(lines, seed: 1, expects: false).isEmpty)
        #expect(try Explorer.check(lines, seed: 1).first?.invariant == .expects)
    }

    @Test func shrinkKeepsTheFaultAndDropsThePadding() throws {
        var padded: [String] = []
        for i in 0..<25 { padded.append("client new extra\(i)") }
        padded += ["user set alice", "start conversation", "net offline --after 10ms", "send c1 text hi", "expect m1.state == sent"]
        for _ in 0..<25 { padded.append("clock") }
        #expect(padded.count == 55)
        let result = try #require(try Shrinker().shrink(padded))
        #expect(result.lines.count <= 5, "\(result.lines)")
        #expect(result.lines.contains { $0.hasPrefix("net offline") })
        #expect(
            result.signature.description
                == "the script's expects: expect m1.state == sent — expected == \"sent\", found \"toBeSent\" (m1 by alice \"hi\")")
    }

    @Test func shrinkingAnInvariantBrokenAfterTheHealKeepsTheHeal() {
        let body = ["user set alice", "send c1 text hi"]
        let lines = body + FaultSchedule.heal
        func run(_ violation: Violation) -> Explorer.Run {
            Explorer.Run(number: 0, body: body, ending: FaultSchedule.heal, violations: [violation])
        }
        let broken = run(Violation(invariant: .delivered, detail: "m1 is still toBeSent"))
        #expect(Explorer.shrinkable(broken) == (body, FaultSchedule.heal))
        #expect(Explorer.shrinkable(run(Violation(invariant: .expects, detail: "expect m1.state == sent"))) == (lines, []))
        #expect(Explorer.shrinkable(run(Violation(invariant: .crash, detail: "signal 4"))) == (lines, []))
    }

    /// A run keeps apart the script's lines (with its faults) and the heal
    /// it ran after them (issue 30): shrinking keeps the ending the run
    /// has, not whatever its last lines look like. Before, a run's last
    /// lines equal to the heal were taken for it, the script's own too.
    @Test func aRunKeepsItsBodyAndEndingApart() {
        var explorer = Explorer()
        explorer.kinds = [.offline]
        let script = ["user set alice", "start conversation", "send c1 text hi"]
        let planned = explorer.planned(script, run: 3)
        #expect(planned.ending == FaultSchedule.heal)
        #expect(planned.lines == planned.body + FaultSchedule.heal)
        #expect(planned.body.filter { script.contains($0) } == script)
        // A script that heals the world itself, run with no heal after it:
        // its own last lines stay in what shrinking may cut.
        let healing = script + FaultSchedule.heal
        let unhealed = Explorer.Run(
            number: 0, body: healing, ending: [], violations: [Violation(invariant: .delivered, detail: "m1 is still toBeSent")])
        #expect(Explorer.shrinkable(unhealed) == (healing, []))
    }

    @Test func numbersShrinkTowardOne() {
        #expect(Shrinker.smaller("net fail 8") == ["net fail 1", "net fail 4", "net fail 2"])
        #expect(Shrinker.smaller("net fail 1").isEmpty)
    }

    /// Only amounts shrink (issue 29): handles, names, quoted text and
    /// expects keep their numbers; every amount of a line is tried.
    @Test func onlyAmountsShrinkNeverAHandleANameOrQuotedText() {
        #expect(Shrinker.smaller("watch items c2").isEmpty)
        #expect(Shrinker.smaller("agent say c2 \"Refill 10mg\"").isEmpty)
        #expect(Shrinker.smaller("expect server.messages(c1).count == 4").isEmpty)
        #expect(Shrinker.smaller("client new extra12").isEmpty)
        #expect(Shrinker.smaller("clock advance 10m") == ["clock advance 1m", "clock advance 5m", "clock advance 2m"])
        #expect(
            Shrinker.smaller("net offline --after 30ms # 4 of them")
                == ["1", "15", "7", "3"].map { "net offline --after \($0)ms # 4 of them" })
        #expect(
            Shrinker.smaller("agent say c1 \"hi 20\" --times 4") == [
                "agent say c1 \"hi 20\" --times 1", "agent say c1 \"hi 20\" --times 2",
            ])
    }

    /// A line marked `# keep` stays, even when the failure does without it.
    @Test func aLineMarkedKeepIsNeverRemoved() throws {
        let lines = [
            "clock # keep", "user set alice", "start conversation", "net offline", "send c1 text hi", "expect m1.state == sent", "clock",
        ]
        let result = try #require(try Shrinker().shrink(lines))
        #expect(result.lines.first == "clock # keep", "\(result.lines)")
        #expect(!result.lines.dropFirst().contains("clock"), "\(result.lines)")
        #expect(Shrinker.isKept("send c1 text hi  #   keep"))
        #expect(!Shrinker.isKept("send c1 text \"keep\""))
    }

    @Test func theProgressLineSaysRunsRateFailuresAndTimeLeft() {
        #expect(ExploreProgress(file: "f.chat", total: 1000).line == "explore f.chat: 0/1000 runs, 0 failed")
        #expect(
            ExploreProgress(file: "f.chat", total: 1000, done: 120, failed: 3, seconds: 2.5).line
                == "explore f.chat: 120/1000 runs, 48 runs/s, 3 failed, ETA 19s")
        #expect(
            ExploreProgress(file: "f.chat", total: 100, done: 10, failed: 0, seconds: 4).line
                == "explore f.chat: 10/100 runs, 2.5 runs/s, 0 failed, ETA 36s")
    }

    @Test func plainProgressComesAtEachTenthOfTheRunsButTheLast() {
        #expect((1...30).filter { ExploreProgress.isMilestone($0, of: 30) } == [3, 6, 9, 12, 15, 18, 21, 24, 27])
        #expect((1...4).filter { ExploreProgress.isMilestone($0, of: 4) } == [1, 2, 3])
        #expect((1...1000).filter { ExploreProgress.isMilestone($0, of: 1000) }.count == 9)
    }

    @Test func aReportGroupsFailuresByInvariantAndIsATestCase() {
        let broken = Violation(invariant: .delivered, detail: "m1 is still sending after the world healed")
        let expect = Violation(invariant: .expects, detail: "expect m1.state == sent")
        let runs = [
            Explorer.Run(number: 0, body: [], violations: []),
            Explorer.Run(number: 1, body: [], violations: [expect]),
            Explorer.Run(number: 2, body: [], violations: [broken, expect]),
            Explorer.Run(number: 3, body: [], violations: [expect]),
        ]
        let report = ExploreReport(file: "examples/f.chat", runs: runs, seconds: 1.5)
        #expect(report.byInvariant.map(\.invariant) == [.delivered, .expects])
        #expect(report.byInvariant.map { $0.runs.map(\.number) } == [[2], [1, 3]])
        let xml = JUnitWriter.xml(
            [report.testResult, ExploreReport(file: "examples/g.chat", runs: [runs[0]], seconds: 0.5).testResult],
            suite: "chatbench explore", failing: "")
        #expect(xml.contains("<testsuite name=\"chatbench explore\" tests=\"2\" failures=\"1\" errors=\"0\" time=\"2.000\">"))
        #expect(
            xml.contains(
                "<failure message=\"an invariant broke in 1 of 4 runs, first run 2: every message sent once or failed (m1 is still sending after the world healed)\">"
            ))
        #expect(xml.contains("\nan expect failed in 2 of 4 runs, first run 1: expect m1.state == sent</failure>"))
        #expect(xml.contains("<testcase name=\"g.chat\" classname=\"examples\" time=\"0.500\"/>"))
    }

    @Test func shardsPartitionTheRunsAndMergeAsOneExploration() throws {
        #expect(Explorer.shard(runs: 7, index: 1, of: 3) == [0, 3, 6])
        #expect(Explorer.shard(runs: 7, index: 3, of: 3) == [2, 5])
        #expect(Explorer.shard(runs: 2, index: 3, of: 3) == [])
        #expect((1...3).flatMap { Explorer.shard(runs: 7, index: $0, of: 3) }.sorted() == Array(0..<7))
        let expect = Violation(invariant: .expects, detail: "expect m1.state == sent")
        func shard(_ index: Int, failing: [Int]) -> ExploreShardReport {
            let runs = failing.map { Explorer.Run(number: $0, body: ["send c1 hi"], violations: [expect]) }
            let report = ExploreReport(file: "f.chat", runs: runs, runCount: 5, seconds: 1)
            let saved = failing.prefix(1).map {
                ExploreShardReport.SavedFailure(run: $0, stem: "f-run\($0)", script: "x", shrunk: nil)
            }
            return ExploreShardReport(
                seed: 1, runs: 10, shardIndex: index, shardCount: 2, faults: nil, noExpects: false,
                files: [ExploreShardReport.File(report, saved: saved)])
        }
        let merged = try ExploreShardReport.merge([shard(2, failing: [3, 5]), shard(1, failing: [4, 8])])
        #expect(merged.reports.map(\.runCount) == [10])
        #expect(merged.reports[0].failing.map(\.number) == [3, 4, 5, 8])
        #expect(merged.saved.map(\.run) == [3])
        #expect(merged.reports[0].testResult.failures == ["an expect failed in 4 of 10 runs, first run 3: expect m1.state == sent"])
        #expect(throws: ExploreShardReport.MergeError.self) { try ExploreShardReport.merge([shard(1, failing: [])]) }
        var otherSeed = shard(2, failing: [])
        otherSeed.seed = 2
        #expect(throws: ExploreShardReport.MergeError.self) { try ExploreShardReport.merge([shard(1, failing: []), otherSeed]) }
    }

    @Test func aLinkFaultPicksAClientThatExistsAndBringsItsLinkBack() {
        let lines = ["user set alice", "client new tablet", "user set alice", "start conversation", "send c1 text hi"]
        let clients = FaultSchedule.clients(in: lines)
        #expect(clients(0) == ["client"])
        #expect(clients(1) == ["client"])
        #expect(clients(2) == ["client", "tablet"])
        #expect(clients(9) == ["client", "tablet"])
        var picked = Set<String>()
        for run in 0..<40 {
            let faulty = FaultSchedule.draw(seed: 3, run: run, steps: lines.count, kinds: [.link], clients: clients).apply(to: lines)
            for (position, line) in faulty.enumerated() where line.hasPrefix("net offline --client ") {
                let name = String(line.dropFirst("net offline --client ".count))
                picked.insert(name)
                // The client exists by then, and its link comes back later.
                #expect(name == "client" || faulty[..<position].contains("client new tablet"), "\(faulty)")
                #expect(faulty[(position + 1)...].contains("net online --client \(name)"), "\(faulty)")
            }
        }
        #expect(picked == ["client", "tablet"])
    }

    /// A failed expect's signature names what its messages are: a script in
    /// which `m2` is another message fails with the same words, and shrink
    /// must not take it for the same failure.
    @Test func anExpectsSignatureSaysWhatItsMessagesAre() throws {
        let first = ["user set alice", "start conversation", "send c1 text \"a\"", "net offline", "send c1 text \"b\""]
        let other = ["user set alice", "start conversation", "net offline", "send c1 text \"b\"", "send c1 text \"c\""]
        let expect = "expect m2.state == sent"
        let a = try Explorer.check(first + [expect], seed: 1)
        let b = try Explorer.check(other + [expect], seed: 1)
        #expect(a.first?.detail == b.first?.detail)
        #expect(a.first?.description == "the script's expects: expect m2.state == sent — expected == \"sent\", found \"toBeSent\"")
        #expect(
            Explorer.signature(of: a)?.description
                == "the script's expects: expect m2.state == sent — expected == \"sent\", found \"toBeSent\" (m2 by alice \"b\")")
        #expect(
            Explorer.signature(of: b)?.description
                == "the script's expects: expect m2.state == sent — expected == \"sent\", found \"toBeSent\" (m2 by alice \"c\")")
    }
}
