import Testing
import Workbench

@testable import chatbench

/// A session whose steps are given in advance.
final class FakeEngine: LineEngine {
    var steps: [String: StepResult]
    var executed: [String] = []
    var exitStatus: Int32 = 0
    var banner: String { "fake" }

    init(_ steps: [String: StepResult] = [:]) { self.steps = steps }

    func execute(_ line: String) -> StepResult {
        executed.append(line)
        return steps[line] ?? StepResult(output: "", status: .ok)
    }

    func completions(for line: String, cursor: Int) -> [String] { [] }

    func historyLine(for line: String) -> String? {
        if line.hasPrefix("secret ") { return "secret <secret#1>" }
        if line.hasPrefix("forget") { return nil }
        return line
    }
}

@Suite struct ScriptLoopTests {
    private func run(_ engine: FakeEngine, bail: Bool, lines: [String]) -> (status: Int32, output: String) {
        var output = ""
        var iterator = lines.makeIterator()
        let loop = ScriptLoop(engine: engine, bail: bail, write: { output += $0.text })
        return (loop.run { iterator.next() }, output)
    }

    @Test func printsEachOutputExactlyAsReturned() {
        let engine = FakeEngine(["a": StepResult(output: "one\n", status: .ok), "b": StepResult(output: "two\nthree\n", status: .ok)])
        engine.exitStatus = 1
        let result = run(engine, bail: false, lines: ["a", "", "b"])
        #expect(result.output == "one\ntwo\nthree\n")
        #expect(result.status == 1)
        #expect(engine.executed == ["a", "", "b"])
    }

    @Test func goesOnAfterFailuresWithoutBail() {
        let engine = FakeEngine(["x": StepResult(output: "no\n", status: .expectFailed)])
        _ = run(engine, bail: false, lines: ["x", "y"])
        #expect(engine.executed == ["x", "y"])
    }

    @Test(arguments: [StepStatus.expectFailed, .scriptError])
    func bailStopsAtTheFirstFailure(status: StepStatus) {
        let engine = FakeEngine(["x": StepResult(output: "no\n", status: status)])
        let result = run(engine, bail: true, lines: ["ok", "x", "y"])
        #expect(engine.executed == ["ok", "x"])
        #expect(result.output == "no\n")
    }

    @Test func quitEndsTheRun() {
        let engine = FakeEngine(["quit": StepResult(output: "", status: .quit)])
        _ = run(engine, bail: false, lines: ["a", "quit", "b"])
        #expect(engine.executed == ["a", "quit"])
    }
}

@Suite struct ScriptFileTests {
    @Test func splitsLinesLikeReadLine() {
        #expect(ScriptFile.split("a\nb\n") == ["a", "b"])
        #expect(ScriptFile.split("a\r\nb") == ["a", "b"])
        #expect(ScriptFile.split("a\n\nb\n") == ["a", "", "b"])
        #expect(ScriptFile.split("") == [])
        #expect(ScriptFile.split("\n") == [""])
    }
}
