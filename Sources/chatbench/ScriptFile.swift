import Foundation

/// The lines of a script file, read whole before the run starts.
struct ScriptFile {
    struct ReadError: Error {
        var path: String
        /// Why, as the system says it (`No such file or directory`).
        var reason: String
        var message: String { "chatbench: cannot read \(path): \(reason)" }
    }

    var lines: [String]

    init(path: String) throws(ReadError) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw ReadError(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ReadError(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        self.lines = ScriptFile.split(bytes)
    }

    /// Splits text into lines as `readLine()` would: "\n" or "\r\n" ends a
    /// line, and a final line without a newline still counts.
    static func split(_ text: String) -> [String] { split(Array(text.utf8)) }

    static func split(_ bytes: [UInt8]) -> [String] {
        // Bytes, not Characters: "\r\n" is a single Character in Swift.
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
        }
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}
