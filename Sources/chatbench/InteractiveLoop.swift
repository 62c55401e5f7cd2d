import Foundation
import Workbench

/// The REPL at a terminal: banner, prompt, history, completion, the start-up
/// file, lines that go on (`...>`), colour and timing.
@MainActor
struct InteractiveLoop {
    nonisolated static let prompt = "chatbench> "
    /// The prompt of a line that goes on (after `\` or inside a quote).
    nonisolated static let continuationPrompt = "...> "

    var engine: any LineEngine
    var stateDirectory = StateDirectory.url()
    /// The start-up file to run first (`rc.chat`); nil with `--no-rc`.
    var startupFile: String?
    /// What pages output taller than the terminal; nil with `--no-pager`,
    /// an empty `$PAGER`, or standard output not a terminal.
    var pager: Pager?

    /// `chatbench> `, `chatbench[phone2]> `, `chatbench[server 127.0.0.1:8080]> `.
    nonisolated static func prompt(context: String?) -> String {
        context.map { "chatbench[\($0)]> " } ?? prompt
    }

    func run() {
        let engine = self.engine
        let editor = LineEditor(prompt: Self.prompt) { line, cursor in
            engine.completions(for: line, cursor: cursor)
        }
        let store = openStore()
        var history = HistoryRecorder(
            store: store,
            redact: { engine.historyLine(for: $0) },
            addToEditor: { editor.addHistory($0) }
        )
        engine.workbench?.historySource = { (try? store?.recentLines(limit: 1000)) ?? [] }
        history.loadIntoEditor()
        Terminal.write(engine.banner + "\n")
        if let startupFile { runStartupFile(startupFile) }
        var paste = PastedTranscript()
        while true {
            var prompt = Self.prompt(context: engine.workbench?.promptContext)
            var line: String?
            var interrupted = false
            let wasWaiting = LineEditor.inputIsWaiting()
            while true {
                let (read, stopped) = Interrupt.atPrompt { editor.readLine(prompt: prompt) }
                if stopped {
                    interrupted = true
                    break
                }
                guard let read else { break }
                line = line.map { LineContinuation.join($0, read) } ?? read
                guard LineContinuation.continues(line!) else { break }
                prompt = Self.continuationPrompt
            }
            if interrupted {
                Terminal.write("\n") // Ctrl-C: drop the line, prompt again
                continue
            }
            guard let read = line else {
                Terminal.write("\n") // Ctrl-D: leave the shell's prompt on a line of its own
                break
            }
            guard case .run(let line) = paste.take(read, wasWaiting: wasWaiting) else { continue }
            // Remembered first: a command that had to be stopped is the one
            // a user wants to find again.
            history.remember(line)
            let step = engine.execute(line)
            Self.show(step, pager: pager)
            if step.status == .quit { break }
        }
        Terminal.flush()
    }

    /// A step's output, painted (through the pager when it is taller than
    /// the terminal), then its timing (`timing on`).
    static func show(_ step: StepResult, pager: Pager? = nil) {
        if let pager, let rows = Terminal.height, let columns = Terminal.width,
            Pager.isTaller(step.output, rows: rows - 1, columns: columns)
        {
            Terminal.flush()
            if Interrupt.whilePaging({ pager.page(Colour.paint(step.styledOutput)) }) {
                showTiming(of: step)
                return
            }
        }
        Terminal.write(Colour.paint(step.styledOutput))
        showTiming(of: step)
    }

    /// `virtual 44ms, wall 1.2ms` (`timing on`), dimmed.
    private static func showTiming(of step: StepResult) {
        if let timing = step.timing { Terminal.write(Colour.paint(.line(timing, as: .time))) }
    }

    /// Runs the start-up file's lines as if typed (a transcript's inputs),
    /// showing their output; a file that cannot be read is a warning.
    private func runStartupFile(_ path: String) {
        guard FileManager.default.fileExists(atPath: path) else { return }
        let input: ScriptInput
        do {
            input = try ScriptInput.text(try ScriptFile(path: path).lines.map { $0 + "\n" }.joined(), path: path)
        } catch let error as ScriptFile.ReadError {
            Terminal.error("chatbench: warning: start-up file skipped: \(error.message)")
            return
        } catch {
            Terminal.error("chatbench: warning: start-up file skipped: \(error)")
            return
        }
        let lines: [String]
        switch input {
        case .transcript(let transcript): lines = transcript.blocks.map(\.input)
        case .script(_, _, let next): lines = Array(sequence(state: (), next: { _ in next() }))
        }
        var iterator = lines.makeIterator()
        let loop = ScriptLoop(engine: engine, bail: false, write: { Terminal.write(Colour.paint($0)) })
        _ = loop.run { iterator.next() }
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

extension InteractiveLoop {
    /// `$XDG_CONFIG_HOME/chatbench/rc.chat` (`~/.config/chatbench/rc.chat`).
    nonisolated static func startupFilePath(environment: [String: String]) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], !config.isEmpty { return config + "/chatbench/rc.chat" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.config/chatbench/rc.chat"
    }
}
