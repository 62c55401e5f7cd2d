import Foundation
import Testing

@testable import Workbench

/// Handlers get values (issue 29): a handler gets the parsed line and a
/// ``CommandContext``, and prints into the step's ``StepOutput``, never
/// into the interpreter.
@Suite struct CommandContextTests {
    func invocation(_ verb: String, _ words: [String]) throws -> Invocation {
        let spec = try #require(CommandTable.standard.spec(named: verb))
        let tokens = words.enumerated().map { Token(text: $1, quoted: false, column: $0 + 1) }
        return Invocation(spec: spec, arguments: tokens, options: [:], line: ([verb] + words).joined(separator: " "))
    }

    @Test func aHandlerActsThroughItsContextAlone() throws {
        let interpreter = try Interpreter(options: WorkbenchOptions())
        let context = CommandContext(interpreter)
        let timing = try invocation("timing", ["on"])
        try timing.spec.run(context, timing)
        #expect(context.output.lines.map(\.text) == ["timing is on"])
        #expect(context.session.timing)
    }

    @Test func theStepsOutputIsItsOwnBuffer() {
        let output = StepOutput()
        output.print("hello \u{1b}[31m", as: .failure)
        output.printAfterEvents("done")
        output.printMade("w1", "watch conversations", first: true)
        #expect(output.lines.map(\.text) == ["w1 = watch conversations", "hello \\u001b[31m"])
        #expect(output.trailer.map(\.text) == ["done"])
        #expect(output.made == "w1")
        output.clear()
        #expect(output.lines.isEmpty && output.trailer.isEmpty && output.made == nil)
    }

    /// No command file names the interpreter: what a handler needs is on
    /// the context, added there on purpose (CommandContext.swift is the
    /// one file that reaches into the interpreter for them).
    @Test func commandFilesNeverReachIntoTheInterpreter() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/Workbench/Commands").standardized
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("Commands+") }
        #expect(files.count >= 9)
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            #expect(!text.contains("interpreter"), "\(file) reaches into the interpreter")
        }
    }
}
