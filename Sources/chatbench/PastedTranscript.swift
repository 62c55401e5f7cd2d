/// A transcript pasted at the prompt (issue 30), taken as IPython takes a
/// pasted `>>>` session: a line that starts with the transcript's prompt
/// (`> `) runs without it, and the lines of expected output pasted with it
/// are skipped. A line counts as pasted output only while a paste goes on:
/// after a `> ` line, and already waiting in the terminal's input when the
/// prompt was drawn (a line typed by hand never is).
///
/// ```
/// > user set alice                          → runs `user set alice`
/// user alice set on client (no request)     → skipped (pasted with it)
/// whoami                                    → typed afterwards: runs
/// ```
struct PastedTranscript {
    /// What to do with a line read at the prompt.
    enum Action: Equatable {
        case run(String)
        case skip
    }

    private(set) var pasting = false

    /// What to do with `line`; `wasWaiting`: it was in the input before the
    /// prompt asked for it.
    mutating func take(_ line: String, wasWaiting: Bool) -> Action {
        if line == ">" || line.hasPrefix("> ") {
            pasting = true
            return .run(String(line.dropFirst(min(2, line.count))))
        }
        if pasting, wasWaiting { return .skip }
        pasting = false
        return .run(line)
    }
}
