import ChatTestSupport
import Foundation
import Testing

/// `chatbench serve` as a user runs it: one "listening" line, then a
/// graceful stop on SIGTERM or SIGINT.
@Suite struct ServeCommandTests {
    @Test(arguments: [SIGTERM, SIGINT])
    func servesUntilASignalThenExitsCleanly(signal: Int32) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("server.sqlite").path

        let server = try RunningServe(arguments: ["--db", db, "--log-level", "warning"])
        let process = server.process
        let text = server.firstLine
        kill(process.processIdentifier, signal)
        let exit = try process.waitForExit(timeout: .seconds(60))

        let pattern = #/^chatbench serve: listening on http://127\.0\.0\.1:(\d+) \(db (.+)\)\n$/#
        let match = try #require(text.wholeMatch(of: pattern), "got: \(text)")
        #expect(Int(match.1)! > 0)
        #expect(String(match.2) == db)
        #expect(exit == ChildExit(status: 0, signaled: false))
        #expect(FileManager.default.fileExists(atPath: db))
    }

    @Test func refusesABadPort() throws {
        let run = try ChatbenchBinary.run(["serve", "--port", "70000"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("--port must be between 0 and 65535"))
    }
}

/// A `chatbench serve --port 0` process, started and read up to its
/// "listening" line; terminated when released.
final class RunningServe {
    let process = Process()
    let firstLine: String

    init(arguments: [String]) throws {
        process.executableURL = try ChatbenchBinary.url()
        process.arguments = ["serve", "--port", "0"] + arguments
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        // One line, once listening: the read ends if the process dies, and
        // after 60 s of silence.
        var line = Data()
        var ready = pollfd(fd: stdout.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
        while !line.contains(UInt8(ascii: "\n")), poll(&ready, 1, 60_000) > 0 {
            let chunk = stdout.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        firstLine = String(decoding: line, as: UTF8.self)
    }

    /// `http://127.0.0.1:PORT` from the listening line.
    var url: String? {
        firstLine.firstMatch(of: #/http://127\.0\.0\.1:\d+/#).map { String($0.output) }
    }

    deinit {
        guard process.isRunning else { return }
        process.terminate()
        _ = try? process.waitForExit(timeout: .seconds(30))
    }
}
