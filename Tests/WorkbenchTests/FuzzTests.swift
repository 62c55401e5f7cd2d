import ChatCore
import Testing

@testable import Workbench

/// Nothing a user types may crash the process or hang it (W2).
@Suite struct FuzzTests {
    static let fragments = [
        "user", "set", "clear", "alice", "watch", "conversations", "conversation", "items", "c1", "c2", "w1", "m1",
        "send", "text", "image", "\"hi there\"", "\"", "'", "--size", "10", "-1", "--reply-to", "agent", "say", "typing",
        "on", "off", "net", "offline", "online", "fail", "drop", "latency", "500ms", "10x", "clock", "advance", "2h",
        "expect", "==", "!=", "<", "contains", "none", "true", ".", "[", "]", "(", ")", "w1.state", "w1[0].text",
        "server.messages(c1)", "server.messages(", "error.code", "=", "x", "provider", "delay", "malformed", "more", "stop",
        "retry", "start", "--title", "help", "inspect", "settle", "wait", "emits", "state", "sent", "client", "new", "use",
        "#", "\u{0}", "é", "🙂", "\\", "--", "-", "token", "expire", "run", "/nonexistent", "replay", "export", "last",
    ]

    @Test func randomAndTruncatedLinesNeverCrash() throws {
        var random = SeededRandom(seed: 42)
        let session = try WorkbenchSession(options: WorkbenchOptions())
        for setup in ["user set alice", "watch conversations", "start conversation", "send c1 text hi"] {
            _ = session.execute(setup)
        }
        for _ in 0..<3000 {
            let count = Int(random.next() % 7)
            var line = (0..<count).map { _ in Self.fragments[Int(random.next() % UInt64(Self.fragments.count))] }.joined(separator: " ")
            if random.next() % 4 == 0, !line.isEmpty {
                line = String(line.prefix(Int(random.next() % UInt64(line.count + 1))))
            }
            if line.hasPrefix("run ") || line.hasPrefix("quit") { continue }
            let result = session.execute(line)
            if result.status == .scriptError {
                #expect(result.output.hasPrefix("script error: "), "\(line) → \(result.output)")
                #expect(result.output.filter { $0 == "\n" }.count == 1, "\(line) → \(result.output)")
            }
        }
        // Still usable afterwards.
        #expect(session.execute("expect client.user == alice").status == .ok)
    }

    @Test func completionNeverCrashes() throws {
        var random = SeededRandom(seed: 7)
        let session = try WorkbenchSession(options: WorkbenchOptions())
        _ = session.execute("user set alice")
        _ = session.execute("start conversation")
        for _ in 0..<1000 {
            let line = (0..<Int(random.next() % 4)).map { _ in Self.fragments[Int(random.next() % UInt64(Self.fragments.count))] }.joined(
                separator: " ")
            _ = session.completions(for: line, cursor: Int(random.next() % UInt64(line.utf8.count + 2)))
        }
    }
}
