import Testing
import Workbench

/// Every line the workbench cannot run says what kind of mistake it is
/// (`StepResult.scriptError`), besides its message for the user.
@Suite struct ScriptErrorTests {
    @Test(arguments: [
        ("frobnicate", ScriptError.Code.unknownVerb),
        ("send c1 text \"unterminated", .syntax),
        ("expect (", .syntax),
        ("inspect c9", .unknownHandle),
        ("client.nosuchfield", .unknownField),
        ("send c1 text hi --bogus 1", .unknownOption),
        ("agent say", .missingArgument),
        ("clock advance 5lightyears", .badValue),
        ("provider delay", .missingArgument),
        ("client new phone2 extra words", .unexpectedArgument),
        ("run /nonexistent/script.chat", .file),
        ("client new 9lives", .badValue),
        ("x = clock advance 1s", .wrongKind),
    ])
    func aMistakeHasItsCode(line: String, code: ScriptError.Code) throws {
        let session = try WorkbenchSession(options: WorkbenchOptions())
        _ = session.execute("user set alice")
        _ = session.execute("start conversation")
        let result = session.execute(line)
        #expect(result.status == .scriptError, "\(result.output)")
        #expect(result.scriptError == code, "\(line): \(result.output)")
        #expect(result.output.hasPrefix("script error: "))
    }

    @Test func aLineThatRunsHasNoCode() throws {
        let session = try WorkbenchSession(options: WorkbenchOptions())
        let result = session.execute("user set alice")
        #expect(result.status == .ok)
        #expect(result.scriptError == nil)
    }
}
