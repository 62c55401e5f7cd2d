/// How hard a file-backed ``Backend`` pushes each commit to disk: SQLite's
/// `PRAGMA synchronous`, for a database in WAL mode (as the server's is).
///
/// ```swift
/// let backend = try Backend(environment: env, path: "chat.sqlite", commitSync: .normal)
/// ```
public enum CommitSync: String, Sendable, CaseIterable {
    /// Sync the write-ahead log at every commit (`FULL`): a commit survives
    /// a crash of the process and a loss of power. About 1.6 ms per commit
    /// on the project's machines.
    case full
    /// Sync only at checkpoints (`NORMAL`): a commit survives a crash of the
    /// process (its pages are in the OS's cache; `kill -9` loses nothing) but
    /// the last commits may be lost on a power loss or an OS crash. The
    /// database stays consistent either way. Tens of microseconds per commit.
    case normal

    var pragma: String {
        switch self {
        case .full: "PRAGMA synchronous = FULL"
        case .normal: "PRAGMA synchronous = NORMAL"
        }
    }
}
