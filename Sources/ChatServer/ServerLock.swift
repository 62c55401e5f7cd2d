import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One server per database file (S4, issue 26): two servers on one file split
/// the realtime streams between them, and a revoke through one leaves the
/// other's streams open. A server holds an exclusive `flock` on a file beside
/// the database (`FILE-lock`, as SQLite keeps `FILE-wal` and `FILE-shm`) for
/// as long as it runs; the kernel releases it when the process ends, however
/// it ends. The lock is on a file of its own because closing any descriptor
/// of the database file would drop SQLite's own locks on it.
final class ServerLock: Sendable {
    /// Why the lock could not be taken; the description is `serve`'s one line.
    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    private let descriptor: Mutex<Int32>

    /// Takes the lock of the database at `databasePath`, or throws saying
    /// which process holds it.
    init(databasePath: String) throws(Refusal) {
        let path = databasePath + "-lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw Refusal(description: "cannot create the lock file \(path): \(String(cString: strerror(errno)))")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let holder = Self.holder(fd)
            close(fd)
            throw Refusal(
                description: "\(databasePath) is in use by another chatbench serve\(holder.map { " (pid \($0))" } ?? ""); "
                    + "one server per database file")
        }
        let pid = Data("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        descriptor = Mutex(fd)
    }

    /// Lets another server open the file (when this one stops).
    func release() {
        descriptor.withLock { fd in
            guard fd >= 0 else { return }
            _ = flock(fd, LOCK_UN)
            close(fd)
            fd = -1
        }
    }

    deinit { release() }

    private static func holder(_ fd: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return Int(text) != nil ? text : nil
    }
}
