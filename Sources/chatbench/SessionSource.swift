import ArgumentParser
import Foundation
import Workbench

/// Finds the session a user names on the command line: a bundle file, or an
/// id or name in the recording database.
enum SessionSource {
    /// The store holding the session, and the session.
    static func open(_ reference: String, db: String?) throws -> (RecordingStore, RecordedSession) {
        do {
            if looksLikeFile(reference) {
                let store = try RecordingStore(path: reference, create: false, bundle: true)
                return (store, try store.bundledSession())
            }
            let store = try RecordingStore(path: db ?? RecordingStore.defaultPath(), create: false)
            return (store, try store.session(reference))
        } catch {
            fail(error.message)
        }
    }

    /// An existing file, or a path (with a `/` or a `.sqlite` ending) of one.
    static func looksLikeFile(_ reference: String) -> Bool {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: reference, isDirectory: &isDirectory), !isDirectory.boolValue { return true }
        return reference.contains("/") || reference.hasSuffix(".sqlite") || reference.hasSuffix(".chatbundle")
    }

    /// Prints `chatbench: message` and exits with status 2.
    static func fail(_ message: String) -> Never {
        Terminal.error("chatbench: \(message)")
        Chatbench.exit(withError: ExitCode(2))
    }
}
