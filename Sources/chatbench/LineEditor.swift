import CLibEdit
import Foundation

/// The interactive line editor: libedit through its readline-compatible API.
/// Emacs key bindings, Ctrl-R incremental history search (libedit binds it),
/// Tab completion from a completer, and in-memory history.
///
/// libedit's state is global, so there is one editor, on the main actor; its
/// C callbacks run synchronously inside `readline()`, on the main thread.
@MainActor
final class LineEditor {
    /// Candidates for the word ending at a UTF-8 offset of a line; each is the
    /// whole replacement word.
    typealias Completer = (_ line: String, _ cursor: Int) -> [String]

    /// The one editor, for the C completion callback (which can capture nothing).
    fileprivate static var current: LineEditor?

    let prompt: String
    fileprivate let completer: Completer

    init(prompt: String, completer: @escaping Completer) {
        self.prompt = prompt
        self.completer = completer
        // Multibyte input needs the user's character type.
        setlocale(LC_CTYPE, "")
        chatbench_rl_set_readline_name("chatbench") // for `chatbench:` lines in ~/.editrc
        // Words are separated by white space only: the session completes
        // whole words such as `w1.state` or `k=v`.
        chatbench_rl_set_basic_word_break_characters(LineEditor.wordBreakCharacters)
        chatbench_rl_set_attempted_completion_function(attemptCompletion)
        Interrupt.install() // before libedit, which chains to it
        rl_initialize()
        LineEditor.current = self
    }

    private static let wordBreakCharacters: UnsafePointer<CChar> = UnsafePointer(strdup(" \t\n")!)

    /// Reads one line after `prompt` (the editor's own by default); nil at
    /// end of input (Ctrl-D on an empty line).
    func readLine(prompt: String? = nil) -> String? {
        Terminal.flush()
        guard let raw = readline(prompt ?? self.prompt) else { return nil }
        defer { free(raw) }
        return String(cString: raw)
    }

    /// Whether input is already waiting on the terminal (a paste still
    /// arriving), without waiting for any.
    static func inputIsWaiting() -> Bool {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0 && descriptor.revents & Int16(POLLIN) != 0
    }

    /// Adds a line to the in-memory history (Up arrow, Ctrl-R).
    func addHistory(_ line: String) {
        _ = add_history(line)
    }

    /// The readline-style answer for the word `text` that ends at `end`
    /// (counted in characters, as libedit counts) in the current line.
    fileprivate func matches(text: String, end: Int) -> (substitution: String, candidates: [String])? {
        let line = String(cString: chatbench_rl_line_buffer())
        let scalars = line.unicodeScalars
        let endIndex = scalars.index(scalars.startIndex, offsetBy: min(max(end, 0), scalars.count))
        let cursor = line.utf8.distance(from: line.utf8.startIndex, to: endIndex)
        let candidates = completer(line, cursor)
        guard !candidates.isEmpty else { return nil }
        var common = candidates.dropFirst().reduce(candidates[0]) { $0.commonPrefix(with: $1) }
        // Never replace what was typed with less than it.
        if !common.hasPrefix(text) { common = text }
        return (common, candidates.count == 1 ? [] : candidates)
    }

    /// After a single candidate: a space, unless the word goes on (a field
    /// path, an index, a `key=`, a folder).
    fileprivate static func appendCharacter(after word: String) -> Int32 {
        guard let last = word.last, !".[=/".contains(last) else { return 0 }
        return Int32(UInt8(ascii: " "))
    }
}

/// libedit's `rl_attempted_completion_function`: a C function pointer, so it
/// captures nothing and finds the editor through `LineEditor.current`.
private let attemptCompletion:
    @convention(c) (UnsafePointer<CChar>?, Int32, Int32)
        -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = { text, _, end in
            // Never fall back to libedit's file name completion.
            chatbench_rl_set_attempted_completion_over(1)
            let word = text.map { String(cString: $0) } ?? ""
            let answer: (substitution: String, candidates: [String], append: Int32)? = MainActor.assumeIsolated {
                guard let editor = LineEditor.current, let found = editor.matches(text: word, end: Int(end)) else {
                    return nil
                }
                let append = found.candidates.isEmpty ? LineEditor.appendCharacter(after: found.substitution) : 0
                return (found.substitution, found.candidates, append)
            }
            guard let answer else { return nil }
            chatbench_rl_set_completion_append_character(answer.append)
            // readline's convention: [substitution, candidates..., NULL], all
            // malloc'ed; libedit frees them.
            let words = [answer.substitution] + answer.candidates
            guard
                let matches = calloc(words.count + 1, MemoryLayout<UnsafeMutablePointer<CChar>?>.stride)?
                    .assumingMemoryBound(to: UnsafeMutablePointer<CChar>?.self)
            else { return nil }
            for (index, word) in words.enumerated() {
                matches[index] = strdup(word)
            }
            return matches
        }
