import ChatSimulation
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
        let context = interpreter.context
        let timing = try invocation("timing", ["on"])
        #expect(try timing.spec.run(context, timing) == .done)
        #expect(context.output.lines.map(\.text) == ["timing is on"])
        #expect(context.session.timing)
    }

    /// How a command ended is a value it returns (no thrown control flow):
    /// an expect that holds is done, one that does not is a failed check,
    /// and quit says so.
    @Test func aCommandSaysHowItEndedAsAValue() throws {
        let interpreter = try Interpreter(options: WorkbenchOptions())
        let context = interpreter.context
        let held = try invocation("expect", ["error", "==", "none"])
        #expect(try held.spec.run(context, held) == .done)
        let failed = try invocation("expect", ["error", "!=", "none"])
        #expect(try failed.spec.run(context, failed) == .expectFailed)
        #expect(context.output.lines.map(\.text) == ["ok: error == none", "expect failed: error != none — expected != none, found none"])
        let quit = try invocation("quit", [])
        #expect(try quit.spec.run(context, quit) == .quit)
        // The step's status follows the value.
        #expect(interpreter.execute("expect error != none").status == .expectFailed)
        #expect(interpreter.execute("quit").status == .quit)
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
    /// the context, added there on purpose.
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

    /// Nor does the context, its parts or any object (issue 29): the
    /// context is made of the session's parts, and objects read the
    /// session through an ``InspectionScope``. Only the interpreter's own
    /// files name its type.
    @Test func theContextAndTheObjectsNeverNameTheInterpreterType() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/Workbench").standardized
        var checked = 0
        for folder in ["Commands", "Objects"] {
            let url = sources.appendingPathComponent(folder)
            for file in try FileManager.default.contentsOfDirectory(atPath: url.path) where file.hasSuffix(".swift") {
                let text = try String(contentsOf: url.appendingPathComponent(file), encoding: .utf8)
                #expect(text.range(of: "\\bInterpreter\\b", options: .regularExpression) == nil, "\(folder)/\(file) names Interpreter")
                checked += 1
            }
        }
        #expect(checked >= 30)
    }
}

/// The table parses a line's words into values by their kinds: a handler
/// reads a duration, a count or a choice, never parses the word again.
@Suite struct TypedArgumentTests {
    func parse(_ line: String, in interpreter: Interpreter) throws -> Invocation {
        let tokens = try Tokenizer.tokenize(line)
        let (spec, used) = try #require(interpreter.table.match(tokens))
        return try interpreter.parse(spec, Array(tokens.dropFirst(used)), binding: nil, line: line)
    }

    @Test func durationsCountsAndChoicesArriveParsed() throws {
        let interpreter = try Interpreter(options: WorkbenchOptions())
        let advance = try parse("clock advance 2h", in: interpreter)
        #expect(advance.duration(0) == .seconds(7200))
        #expect(advance.argumentValues == [.duration(.seconds(7200))])
        let fail = try parse("net fail 3 --kind refused", in: interpreter)
        #expect(fail.count(0) == 3)
        #expect(fail.choice("--kind", as: FailureKind.self) == .refused)
        #expect(fail.optionValues["--kind"] == [.word("refused")])
        let offline = try parse("net offline --after 1500ms", in: interpreter)
        #expect(offline.duration("--after") == .milliseconds(1500))
        #expect(offline.duration(0) == nil && offline.count("--after") == nil)
        // A word the table refuses never reaches a handler.
        #expect(throws: ScriptError.self) { try parse("clock advance soon", in: interpreter) }
        #expect(throws: ScriptError.self) { try parse("net fail -1", in: interpreter) }
    }
}
