import Foundation

/// A parsed `.chat` file (SPEC W8): either a plain script (no line starts
/// with `> `; every line is a command) or a transcript (lines starting with
/// `> ` are inputs; the lines after one, up to the next, are its expected
/// output). Comment lines (`# …`) and blank lines may come before the first
/// input; `# seed: N` among them sets the world's seed (default 1).
///
/// ```
/// # seed: 7
/// > user set alice
/// user alice set on client (no request)
///   [..] client.session → userSet(alice)
/// > clock
/// clock 2026-01-01T[..] (re)
/// ```
package struct Transcript: Sendable, Hashable {
    package enum Kind: String, Sendable, Hashable {
        case script, transcript
    }

    /// One input and what it should print.
    package struct Block: Sendable, Hashable {
        /// The line without its `> ` (a script's line as is).
        package var input: String
        /// 1-based line of the input in the file.
        package var line: Int
        /// Expected output lines, trailing blank lines removed.
        package var expected: [String]
        /// Blank lines that followed the expected output (kept by `--update`).
        package var trailingBlankLines: Int
    }

    package var kind: Kind
    /// Lines before the first input (comments, blank lines), kept by `--update`.
    package var header: [String]
    /// Inputs in order; for a script, every line.
    package var blocks: [Block]
    /// The seed a `# seed: N` line declares; nil when none does (seed 1).
    package var seed: UInt64?
    /// Why the file runs only in the embedded world (`# embedded-only: REASON`,
    /// e.g. it moves virtual time); nil when it also runs against a server.
    package var embeddedOnly: String?
    /// Why the file runs only against a server (`# server-only: REASON`);
    /// nil when it also runs in the embedded world.
    package var serverOnly: String?
    /// Made of a Markdown file's ```` ```transcript ```` blocks (never rewritten).
    package var isMarkdown = false

    /// Parses `text`; `path` names the file in errors.
    package static func parse(_ text: String, path: String) throws(TranscriptError) -> Transcript {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
        }
        if lines.last == "" { lines.removeLast() }
        let isTranscript = lines.contains { $0.hasPrefix("> ") || $0 == ">" }
        var seed: UInt64?
        var embeddedOnly: String?
        var serverOnly: String?
        var header: [String] = []
        var index = 0
        // Leading comments and blank lines (the header), with directives.
        while index < lines.count, isHeaderLine(lines[index]) {
            let line = lines[index]
            if let value = directive("seed", in: line) {
                guard let parsed = UInt64(value) else {
                    throw TranscriptError(path: path, line: index + 1, "`# seed:` needs a whole number, got \"\(value)\"")
                }
                seed = parsed
            }
            if let reason = directive("embedded-only", in: line) { embeddedOnly = reason.isEmpty ? "embedded only" : reason }
            if let reason = directive("server-only", in: line) { serverOnly = reason.isEmpty ? "server only" : reason }
            header.append(line)
            index += 1
        }
        guard isTranscript else {
            let blocks = lines.enumerated().map { Block(input: $0.element, line: $0.offset + 1, expected: [], trailingBlankLines: 0) }
            return Transcript(kind: .script, header: [], blocks: blocks, seed: seed, embeddedOnly: embeddedOnly, serverOnly: serverOnly)
        }
        var blocks: [Block] = []
        while index < lines.count {
            let line = lines[index]
            guard line.hasPrefix("> ") || line == ">" else {
                throw TranscriptError(
                    path: path, line: index + 1,
                    "\"\(line)\" comes before the first `> ` input: in a transcript, only comments (# …) and blank lines may come first")
            }
            let input = String(line.dropFirst(2))
            guard !input.allSatisfy(\.isWhitespace) else {
                throw TranscriptError(path: path, line: index + 1, "`>` with no command: write `> COMMAND`, or remove the line")
            }
            var expected: [String] = []
            var next = index + 1
            while next < lines.count, !lines[next].hasPrefix("> "), lines[next] != ">" {
                let candidate = lines[next]
                if candidate.hasSuffix(TranscriptMatcher.regexSuffix) {
                    let pattern = String(candidate.dropLast(TranscriptMatcher.regexSuffix.count))
                    if let problem = TranscriptMatcher.regexProblem(pattern) {
                        throw TranscriptError(path: path, line: next + 1, "bad regular expression before ` (re)`: \(problem)")
                    }
                }
                expected.append(candidate)
                next += 1
            }
            var blank = 0
            while let last = expected.last, last.allSatisfy(\.isWhitespace) {
                expected.removeLast()
                blank += 1
            }
            blocks.append(Block(input: input, line: index + 1, expected: expected, trailingBlankLines: blank))
            index = next
        }
        return Transcript(kind: .transcript, header: header, blocks: blocks, seed: seed, embeddedOnly: embeddedOnly, serverOnly: serverOnly)
    }

    /// Reads and parses a file.
    package static func load(path: String) throws(TranscriptError) -> Transcript {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
            throw TranscriptError(path: path, "cannot read it: \(reason)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw TranscriptError(path: path, "not UTF-8 text: is it a .chat file?")
        }
        return isMarkdown(path) ? try parseMarkdown(text, path: path) : try parse(text, path: path)
    }

    /// Whether a line may come before a transcript's first input: blank, or a comment.
    package static func isHeader(_ line: String) -> Bool { isHeaderLine(line) }

    static func isHeaderLine(_ line: String) -> Bool {
        // Every line of piped input is asked this before it runs: Foundation
        // only for a line that starts or ends with white space.
        let trimmed = line.trimmingWhitespace
        return trimmed.isEmpty || trimmed.hasPrefix("#")
    }

    /// The value of `# NAME: VALUE`.
    static func directive(_ name: String, in line: String) -> String? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("#") else { return nil }
        let body = trimmed.dropFirst().trimmingCharacters(in: .whitespaces)
        guard body.hasPrefix(name + ":") else { return nil }
        return body.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces)
    }

    /// The file's text again, with `replacements` (block index → new
    /// expected lines) applied: what `test --update` writes.
    package func rendered(replacing replacements: [Int: [String]] = [:]) -> String {
        var out: [String] = header
        for (index, block) in blocks.enumerated() {
            out.append(kind == .transcript ? "> \(block.input)" : block.input)
            out += replacements[index] ?? block.expected
            out += Array(repeating: "", count: block.trailingBlankLines)
        }
        return out.map { $0 + "\n" }.joined()
    }

    /// An output line as a transcript's expected line: lines that would be
    /// read as something else (an input, `...`, a pattern) become a
    /// regular expression matching exactly them.
    package static func expectedLine(for output: String) -> String {
        let special =
            output.hasPrefix("> ") || output == ">" || output == TranscriptMatcher.anyLines
            || output.hasSuffix(TranscriptMatcher.regexSuffix) || output.contains(TranscriptMatcher.anyText)
        guard special else { return output }
        var pattern = NSRegularExpression.escapedPattern(for: output)
        if pattern.hasPrefix(">") { pattern = "[>]" + pattern.dropFirst() }
        return pattern + TranscriptMatcher.regexSuffix
    }
}
