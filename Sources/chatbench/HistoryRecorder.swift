/// Decides what of each entered line goes to history and puts it there:
/// the session's redacted form (nil: nothing), no blank lines, no
/// consecutive duplicates; into the store and the line editor.
///
/// History is a convenience: when the store fails, one warning goes to
/// standard error and the REPL carries on without storing.
struct HistoryRecorder {
    var store: HistoryStore?
    /// The session's `historyLine(for:)`.
    var redact: (String) -> String?
    /// Adds a line to the line editor's in-memory history.
    var addToEditor: (String) -> Void
    var warn: (String) -> Void = Terminal.error

    private var lastLine: String?
    private var warned = false

    init(
        store: HistoryStore?,
        redact: @escaping (String) -> String?,
        addToEditor: @escaping (String) -> Void,
        warn: @escaping (String) -> Void = Terminal.error
    ) {
        self.store = store
        self.redact = redact
        self.addToEditor = addToEditor
        self.warn = warn
    }

    /// Loads the store's recent lines into the line editor.
    mutating func loadIntoEditor(limit: Int = 1000) {
        guard let store else { return }
        do {
            let lines = try store.recentLines(limit: limit)
            lines.forEach(addToEditor)
            lastLine = lines.last
        } catch {
            fail(error)
        }
    }

    /// Records one line the user entered.
    mutating func remember(_ line: String) {
        guard let kept = redact(line), !kept.allSatisfy(\.isWhitespace), kept != lastLine else { return }
        lastLine = kept
        addToEditor(kept)
        guard let store else { return }
        do {
            try store.append(kept)
        } catch {
            fail(error)
        }
    }

    private mutating func fail(_ error: any Error) {
        store = nil
        guard !warned else { return }
        warned = true
        let reason = "\(error)".split(whereSeparator: \.isNewline).joined(separator: " ")
        warn("chatbench: warning: history is not being saved: \(reason)")
    }
}
