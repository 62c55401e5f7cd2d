import Foundation
import Workbench

/// Writes HTML sequence views: a recorded session's (`sessions show
/// --html`, `export --html`) or a failing run's (`--html-on-failure DIR`).
enum HTMLFile {
    /// Writes `html` as `name` into folder `folder` (made if missing) and
    /// returns its path; exits with a one-line error when it cannot.
    static func write(_ html: String, into folder: String, name: String) -> String {
        let path = URL(fileURLWithPath: folder).appendingPathComponent(name).path
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(html.utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            SessionSource.fail("cannot write \(path): \((error as NSError).localizedDescription)")
        }
        return path
    }

    /// `examples/06-sending.chat` → `examples_06-sending.html`: one name per file.
    static func name(forTranscript path: String) -> String {
        var name = path.hasPrefix("./") ? String(path.dropFirst(2)) : path
        if name.hasSuffix(".chat") { name.removeLast(".chat".count) }
        return name.split(separator: "/").joined(separator: "_").replacingOccurrences(of: "..", with: "up") + ".html"
    }
}
