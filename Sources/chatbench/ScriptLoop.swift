import Workbench

/// Feeds lines to a session with no prompt and prints each step's output
/// exactly as returned: the non-interactive REPL, `run FILE` and `run -`.
struct ScriptLoop {
    var engine: any LineEngine
    /// Stop at the first failing `expect` or line that cannot be understood.
    var bail: Bool
    /// Where each step's output goes, with what its parts are.
    var write: (StyledText) -> Void = Terminal.writeStep

    /// Runs until the lines end, the session quits or (with `bail`) a step
    /// fails; returns the session's exit status.
    func run(lines nextLine: () -> String?) -> Int32 {
        while var line = nextLine() {
            // A line ending in `\` or inside an open quote goes on.
            while LineContinuation.continues(line), let more = nextLine() { line = LineContinuation.join(line, more) }
            let step = engine.execute(line)
            write(step.styledOutput)
            if let timing = step.timing { write(.line(timing, as: .time)) }
            if step.status == .quit { break }
            if bail, step.status == .expectFailed || step.status == .scriptError { break }
        }
        return engine.exitStatus
    }
}
