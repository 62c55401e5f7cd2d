import Foundation

/// What `export` writes a recorded session as (SPEC W8, W9), and the one
/// code that writes it, for the subcommand and the REPL verb alike.
package enum SessionExport {
    package enum Target: Sendable, Hashable {
        /// A transcript that `chatbench test` runs.
        case transcript(String)
        /// A self-contained SQLite file that `replay` and `sessions` read.
        case bundle(String)
        /// The session's sequence view, one HTML file.
        case html(String)
    }

    /// Writes `recorded` (named `source` by the user) to `target`: notes on
    /// what could not be inferred, and one line saying what was written.
    package static func write(
        _ recorded: RecordedSession, of store: RecordingStore, source: String, to target: Target, force: Bool
    ) throws(RecordingError) -> (notes: [String], done: String) {
        switch target {
        case .transcript(let file):
            return try Transcript.write(recorded, of: store, source: source, to: file, force: force)
        case .bundle(let file):
            if force { try? FileManager.default.removeItem(atPath: file) }
            try store.exportBundle(recorded.id, to: file)
            return ([], "wrote session \(recorded.label) to \(file) (replay it with: chatbench replay \(file))")
        case .html(let file):
            if !force, FileManager.default.fileExists(atPath: file) {
                throw RecordingError(.unwritable, "\(file) already exists: choose another name, or pass --force")
            }
            try writeHTML(of: recorded, from: store, to: file)
            return ([], "wrote session \(recorded.label) to \(file) (open it in a browser)")
        }
    }

    /// Writes session `recorded`'s sequence view to `path`.
    package static func writeHTML(of recorded: RecordedSession, from store: RecordingStore, to path: String) throws(RecordingError) {
        let html = try store.sequenceHTML(of: recorded)
        do {
            try Data(html.utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            throw RecordingError(.unwritable, "cannot write \(path): \((error as NSError).localizedDescription)")
        }
    }
}
