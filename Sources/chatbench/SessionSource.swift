import ArgumentParser
import Foundation
import Workbench

/// Finds the session a user names on the command line: a bundle file, or an
/// id or name in the recording database (``RecordingStore/open(session:db:current:)``,
/// which the REPL's `replay` and `export` use too).
enum SessionSource {
    /// The store holding the session, and the session.
    static func open(_ reference: String, db: String?) throws -> (RecordingStore, RecordedSession) {
        do {
            return try RecordingStore.open(session: reference, db: db ?? RecordingStore.defaultPath())
        } catch {
            fail(error.message)
        }
    }

    /// Prints `chatbench: message` and exits with status 2.
    static func fail(_ message: String) -> Never {
        Terminal.error("chatbench: \(message)")
        Chatbench.exit(withError: ExitCode(2))
    }
}
