import Foundation
import Testing

/// `completions/` is generated from the argument parser and must stay current (SPEC W11).
@Suite struct CompletionScriptTests {
    @Test(arguments: [
        ("bash", "chatbench.bash"),
        ("zsh", "_chatbench"),
        ("fish", "chatbench.fish"),
    ])
    func committedScriptMatchesTheArgumentParser(shell: String, file: String) throws {
        let generated = try ChatbenchBinary.run(["--generate-completion-script", shell])
        #expect(generated.status == 0)
        let path = ChatbenchBinary.packageRoot.appendingPathComponent("completions").appendingPathComponent(file)
        let committed = try String(contentsOf: path, encoding: .utf8)
        #expect(
            committed == generated.stdout,
            "completions/\(file) is out of date: run scripts/generate-completions.sh and commit the result")
    }
}
