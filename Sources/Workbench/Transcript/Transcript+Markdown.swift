import Foundation

extension Transcript {
    /// The info string that marks a Markdown code block as a transcript
    /// (```` ```transcript ````): `chatbench test README.md` runs every such
    /// block of the file, in order, in one session, so a document's
    /// examples cannot drift from what the REPL prints.
    package static let markdownInfo = "transcript"

    /// Whether `path` is read as Markdown (its transcript blocks).
    static func isMarkdown(_ path: String) -> Bool { path.hasSuffix(".md") || path.hasSuffix(".markdown") }

    /// The transcript made of a Markdown file's transcript blocks; line
    /// numbers are the file's. Such a transcript is never rewritten by
    /// `--update` (the rest of the file is prose).
    static func parseMarkdown(_ text: String, path: String) throws(TranscriptError) -> Transcript {
        var kept: [String] = []
        var origin: [Int] = []
        var inBlock = false
        var fence = ""
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if !inBlock {
                if trimmed.hasPrefix("```"), trimmed.dropFirst(3).trimmingCharacters(in: .whitespaces) == markdownInfo {
                    inBlock = true
                    fence = String(trimmed.prefix { $0 == "`" })
                }
                continue
            }
            if trimmed == fence {
                inBlock = false
                continue
            }
            kept.append(String(line))
            origin.append(index + 1)
        }
        guard !kept.isEmpty else {
            throw TranscriptError(path: path, "no ```\(markdownInfo) code block: mark the blocks to check with ```\(markdownInfo)")
        }
        var transcript: Transcript
        do {
            transcript = try parse(kept.map { $0 + "\n" }.joined(), path: path)
        } catch {
            throw TranscriptError(path: path, line: error.line.map { origin[$0 - 1] }, error.reason)
        }
        for index in transcript.blocks.indices { transcript.blocks[index].line = origin[transcript.blocks[index].line - 1] }
        transcript.isMarkdown = true
        return transcript
    }
}
