import Foundation

extension RecordingStore {
    /// The store and the session a user names, on the command line
    /// (`chatbench replay`, `export`, `sessions show`) or at the prompt
    /// (`replay`, `export`): a recording file (a bundle, an app's
    /// diagnostics file), read without being changed, or an id, a name or
    /// `last` in the recording database at `db`.
    ///
    /// - Parameter current: the session being recorded by whoever asks (the
    ///   REPL's own): `last` is the newest other one, and naming it is an
    ///   error, since it has not ended.
    package static func open(
        session reference: String, db: String, current: Int64? = nil
    ) throws(RecordingError) -> (RecordingStore, RecordedSession) {
        if looksLikeFile(reference) {
            if reference.hasSuffix(".chat") {
                throw RecordingError(
                    .foreign,
                    "\(reference) is a transcript, not a recording: run it with chatbench test \(reference) (or run FILE at the prompt)")
            }
            guard FileManager.default.fileExists(atPath: reference) else {
                throw RecordingError(
                    .missing,
                    "no recording file at \(reference): name a bundle (export SESSION --bundle FILE) or an app's diagnostics file")
            }
            let store = try RecordingStore(path: reference, create: false, bundle: true)
            return (store, try store.bundledSession())
        }
        let store = try RecordingStore(path: db, create: false)
        let session = try store.session(reference, excluding: current)
        if let current, session.id == current {
            throw RecordingError(
                .unsupported,
                "session \(session.label) is this one, still being recorded: replay or export it once it has ended (record stop, or quit)")
        }
        return (store, session)
    }

    /// Whether a session reference names a file: an existing file, or a
    /// path (with a `/`, or a `.sqlite` or `.chatbundle` ending) of one.
    package static func looksLikeFile(_ reference: String) -> Bool {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: reference, isDirectory: &isDirectory), !isDirectory.boolValue { return true }
        return reference.contains("/") || reference.hasSuffix(".sqlite") || reference.hasSuffix(".chatbundle")
    }
}
