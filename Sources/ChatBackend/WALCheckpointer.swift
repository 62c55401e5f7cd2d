import Dispatch
import GRDB
import GRDBSQLite
import Synchronization

/// Checkpoints a file-backed backend's write-ahead log on a connection and a
/// thread of its own, so that the writer never waits for it.
///
/// SQLite's automatic checkpoint runs inside the commit that crosses its
/// threshold: that commit copies the log into the database and syncs both
/// files, which took from 2 to 80 ms here while every request queued behind
/// it (the server's p99 delivery latency jumped from ~15 ms to ~90 ms on the
/// runs that hit a slow sync). Here the writer connection's WAL hook (which
/// replaces the automatic checkpoint) only signals; this object runs PASSIVE
/// checkpoints, which never block the writer, from a second connection.
/// Commits stay as durable as ``CommitSync`` says: only where the pages are
/// copied, and by which thread, changes.
final class WALCheckpointer: Sendable {
    /// Log size, in frames (pages), from which a checkpoint is asked for:
    /// SQLite's own default threshold.
    static let thresholdFrames: Int32 = 1_000

    private let connection: DatabaseQueue
    private let queue = DispatchQueue(label: "chatbench.backend.checkpoint", qos: .utility)
    /// Whether a checkpoint is queued or running, and whether the log grew
    /// past the threshold again meanwhile (then one more pass follows).
    private let pending = Mutex<(scheduled: Bool, again: Bool)>((false, false))

    /// Opens the checkpointing connection to the database at `path`.
    init(path: String) throws {
        var configuration = Backend.fileConfiguration
        configuration.label = "checkpointer"
        connection = try DatabaseQueue(path: path, configuration: configuration)
    }

    /// Installs the hook on the writer's connection. SQLite calls it after
    /// each commit, with the lock released, with the log's size in frames.
    func install(on db: Database) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_wal_hook(
            db.sqliteConnection,
            { context, _, _, frames in
                if frames >= WALCheckpointer.thresholdFrames, let context {
                    Unmanaged<WALCheckpointer>.fromOpaque(context).takeUnretainedValue().logDidGrow()
                }
                return SQLITE_OK
            }, context)
    }

    /// Removes the hook (before this object goes away).
    static func uninstall(on db: Database) {
        sqlite3_wal_hook(db.sqliteConnection, nil, nil)
    }

    /// Asks for a checkpoint; coalesced with one queued or running.
    func logDidGrow() {
        let schedule = pending.withLock { state -> Bool in
            if state.scheduled {
                state.again = true
                return false
            }
            state.scheduled = true
            return true
        }
        if schedule { queue.async { self.run() } }
    }

    /// Runs checkpoints until no request came in during the last one.
    private func run() {
        while true {
            // A failure (a reader holding an old snapshot, a full disk) leaves
            // the log as it is: the next commit past the threshold asks again.
            _ = try? connection.writeWithoutTransaction { db in try db.checkpoint(.passive) }
            let again = pending.withLock { state -> Bool in
                if state.again {
                    state.again = false
                    return true
                }
                state.scheduled = false
                return false
            }
            if !again { return }
        }
    }

    /// Waits for the checkpoint in progress, if any (tests; shutdown uses ``close()``).
    func waitUntilIdle() {
        queue.sync {}
    }

    /// Waits for the checkpoint in progress, then closes the connection, so
    /// that the file is free once the backend is gone (closing the last
    /// connection checkpoints under an exclusive lock: done later, on this
    /// queue, it made a backend reopened at once find the file locked).
    func close() {
        queue.sync { try? connection.close() }
    }
}
