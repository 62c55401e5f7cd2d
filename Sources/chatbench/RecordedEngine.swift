import ArgumentParser
import Foundation
import Workbench

/// A workbench session whose steps are recorded (SPEC W5): what the REPL,
/// `run` and piped input use unless `--no-record`.
final class RecordedEngine: LineEngine {
    let session: WorkbenchSession
    let recorder: Recorder

    init(session: WorkbenchSession, recorder: Recorder) {
        self.session = session
        self.recorder = recorder
        recorder.onFailure = { error in
            Terminal.error("chatbench: warning: recording stopped: \(error.message)")
        }
    }

    var banner: String {
        session.banner
            + "\nRecording as session \(recorder.session.label) in \(recorder.store.path) (record stop stops, --no-record skips)."
    }

    func execute(_ line: String) -> StepResult { recorder.execute(line) }
    func completions(for line: String, cursor: Int) -> [String] { session.completions(for: line, cursor: cursor) }
    func historyLine(for line: String) -> String? { session.historyLine(for: line) }
    var exitStatus: Int32 { session.exitStatus }
    var workbench: WorkbenchSession? { session }

    /// Marks the session as ended.
    func finish() { recorder.finish() }
}

extension WorldOptions {
    /// The recording database: `--db`, or the default under `$XDG_DATA_HOME`.
    var databasePath: String { db ?? RecordingStore.defaultPath() }

    /// The engine for `session`: recorded unless `--no-record`. A database
    /// that cannot be used is an error that says what to do (exit 2).
    func engine(for session: WorkbenchSession, kind: SessionKind) throws -> any LineEngine {
        guard !noRecord else {
            // Nobody reads the traffic: it is not collected.
            session.capturesTraffic = false
            return session
        }
        // A folder named by hand must exist: a typo never creates folders.
        if let db {
            let folder = (db as NSString).deletingLastPathComponent
            var isDirectory: ObjCBool = false
            if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) || !isDirectory.boolValue {
                Terminal.error("chatbench: cannot record into \(db): there is no folder \(folder) (create it, or pass --no-record)")
                throw ExitCode(2)
            }
        }
        do {
            let store = try RecordingStore(path: databasePath)
            let recorder = try Recorder(store: store, workbench: session, name: name, kind: kind)
            return RecordedEngine(session: session, recorder: recorder)
        } catch {
            Terminal.error("chatbench: \(error.message) (or --no-record to run without recording)")
            throw ExitCode(2)
        }
    }
}
