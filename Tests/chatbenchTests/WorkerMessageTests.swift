import ChatTestSupport
import Foundation
import Testing

@testable import Workbench
@testable import chatbench

/// The explore worker's protocol (issue 30): each request and answer is
/// one JSON value a line, written and read through its one type. Before,
/// each side wrote and parsed `run N`, `check JSON`, `started …` and
/// `done …` by hand.
@Suite struct WorkerMessageTests {
    static let steps = [
        TranscriptShrinker.Step(input: "send c1 text \"hi\\nthere\"", expected: ["ok: m1", ""], compared: true),
        TranscriptShrinker.Step(input: "clock", expected: [], compared: false),
    ]

    /// Every request reads back from its line as it was written.
    @Test func eachRequestReadsBackFromItsLine() throws {
        let requests: [WorkerRequest] = [
            .run(number: 0), .run(number: 199), .check(lines: ["user set alice", "send c1 text \"a \\\"b\\\"\" # keep", "é\tü"]),
            .check(lines: []), .trial(steps: Self.steps), .trial(steps: []),
        ]
        for request in requests {
            #expect(!request.json.contains("\n"), "\(request.json)")
            #expect(try WorkerRequest(json: Substring(request.json)) == request, "\(request.json)")
        }
    }

    /// Every answer reads back from its line; a line without the prefix is
    /// none (the worker's other output).
    @Test func eachAnswerReadsBackFromItsLine() throws {
        let trial = TranscriptShrinker.Trial(
            failure: .init(index: 1, signature: .expectFailed("expect m1.state == sent — found \"toBeSent\"", referents: " (m1)")),
            outputs: [["ok"], []])
        let answers: [WorkerAnswer] = [
            .startedRun(number: 7), .startedCheck, .progress(.willRun(step: 2)), .progress(.ran(step: 0, output: ["a", ""])),
            .finished(violations: []),
            .finished(violations: [Violation(invariant: .expects, detail: "expect m1.state == sent", referents: "m1: toBeSent")]),
            .tried(trial), .tried(TranscriptShrinker.Trial(failure: nil, outputs: [])),
        ]
        for answer in answers {
            #expect(answer.line.hasPrefix(WorkerAnswer.prefix) && !answer.line.contains("\n"), "\(answer.line)")
            #expect(try WorkerAnswer.read(Substring(answer.line)) == answer, "\(answer.line)")
            // Every value under a key that names it.
            #expect(!answer.line.contains("\"_0\""), "\(answer.line)")
        }
        #expect(try WorkerAnswer.read("done []") == nil)
        #expect(try WorkerAnswer.read("") == nil)
    }

    /// A line that holds no value is an error of one line naming it, not
    /// a crash: the old forms among them.
    @Test func aMalformedLineIsAOneLineError() {
        func error(_ body: () throws -> Void) -> String? {
            do { try body() } catch let error as WorkerMessageError { return error.description } catch { return "another error: \(error)" }
            return nil
        }
        #expect(error { _ = try WorkerRequest(json: "run 3") } == "unknown request \"run 3\": not JSON")
        #expect(error { _ = try WorkerRequest(json: "") } == "unknown request \"\": not JSON")
        #expect(
            error { _ = try WorkerRequest(json: "{\"walk\":{\"number\":3}}") }
                == "unknown request \"{\\\"walk\\\":{\\\"number\\\":3}}\": no request has this form")
        #expect(error { _ = try WorkerRequest(json: "{\"run\":{\"number\":\"3\"}}") }?.hasSuffix(": no request has this form") == true)
        #expect(error { _ = try WorkerAnswer.read("chatbench-worker: done []") } == "unknown answer \"done []\": not JSON")
        #expect(error { _ = try WorkerAnswer.read("chatbench-worker: [1]") } == "unknown answer \"[1]\": no answer has this form")
        let long = "check " + String(repeating: "x", count: 500) + "\r"
        let message = error { _ = try WorkerRequest(json: Substring(long)) }
        #expect(message == "unknown request \"check \(String(repeating: "x", count: 194))…\": not JSON", "\(message ?? "")")
        #expect(error { _ = try WorkerRequest(json: "[\"a\r\nb\"]") } == "unknown request \"[\\\"a\\r\\nb\\\"]\": no request has this form")
    }

    /// The worker answers a request as the parent reads it, and ends a
    /// line that is no request with that one-line error, exit status 2.
    @Test func theWorkerAnswersRequestsAndRefusesAMalformedLineInOneLine() throws {
        let example = ChatbenchBinary.packageRoot.appendingPathComponent("examples/01-walking-skeleton.chat").path
        let input = WorkerRequest.run(number: 3).json + "\n" + WorkerRequest.check(lines: ["user set alice"]).json + "\nrun 3\n"
        let worker = try ChatbenchBinary.run(["explore-worker", example, "--seed", "1"], input: input)
        let answers = try worker.stdout.split(separator: "\n").compactMap { try WorkerAnswer.read($0) }
        let checked = try Explorer.check(["user set alice"], seed: 1)
        try #require(answers.count == 4, "\(worker.stdout)")
        #expect(answers[0] == .startedRun(number: 3))
        if case .finished = answers[1] {} else { Issue.record("a run is answered finished: \(answers[1])") }
        #expect(answers[2...] == [.startedCheck, .finished(violations: checked)])
        #expect(worker.status == 2)
        #expect(worker.stderr == "chatbench: explore-worker: unknown request \"run 3\": not JSON\n", "\(worker.stderr)")
    }
}
