import Foundation

/// The REPL at a terminal: banner, prompt, history, completion.
@MainActor
struct InteractiveLoop {
    static let prompt = "chatbench> "

    var engine: any LineEngine
    var stateDirectory = StateDirectory.url()

    func run() {
        let engine = self.engine
        let editor = LineEditor(prompt: Self.prompt) { line, cursor in
            engine.completions(for: line, cursor: cursor)
        }
        var history = HistoryRecorder(
            store: openStore(),
            redact: { engine.historyLine(for: $0) },
            addToEditor: { editor.addHistory($0) }
        )
        history.loadIntoEditor()
        Terminal.write(engine.banner + "\n")
        while true {
            let (read, interrupted) = Interrupt.atPrompt { editor.readLine() }
            if interrupted {
                Terminal.write("\n")  // Ctrl-C: drop the line, prompt again
                continue
            }
            guard let line = read else {
                Terminal.write("\n")  // Ctrl-D: leave the shell's prompt on a line of its own
                break
            }
            // Remembered first: a command that had to be stopped is the one
            // a user wants to find again.
            history.remember(line)
            let step = engine.execute(line)
            Terminal.write(step.output)
            if step.status == .quit { break }
        }
        Terminal.flush()
    }

    private func openStore() -> HistoryStore? {
        do {
            return try HistoryStore(directory: stateDirectory)
        } catch {
            let reason = "\(error)".split(whereSeparator: \.isNewline).joined(separator: " ")
            Terminal.error("chatbench: warning: history is not being saved: \(reason)")
            return nil
        }
    }
}
