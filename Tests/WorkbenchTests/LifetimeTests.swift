import ChatBackend
import ChatSimulation
import Foundation
import Testing

@testable import Workbench

/// A finished session leaves nothing behind: no object, no cache folder.
@Suite struct LifetimeTests {
    @Test func aFinishedSessionIsFreedWithItsCacheFolder() throws {
        weak var interpreter: Interpreter?
        var folder = ""
        do {
            let session = try WorkbenchSession(options: WorkbenchOptions())
            for line in [
                "user set alice", "watch conversations", "start conversation", "send c1 text hi",
                "watch items c1", "agent say c1 hello", "client new phone2", "login anonymous", "app restart",
            ] {
                _ = session.execute(line)
            }
            interpreter = session.interpreter
            folder = session.interpreter.cacheFolder
            #expect(FileManager.default.fileExists(atPath: folder))
        }
        #expect(interpreter == nil, "the interpreter outlived its session")
        #expect(!FileManager.default.fileExists(atPath: folder), "the cache folder outlived its session")
    }

    /// The embedded world, its backend and their in-memory databases go
    /// with the session: the traffic reporter hooked onto the world's
    /// network held the world, which held the reporter, and an explore
    /// worker grew by 0.4 MB a run (issue 31).
    @Test func aFinishedSessionFreesItsWorldAndBackend() throws {
        weak var world: World?
        weak var backend: Backend?
        do {
            let session = try WorkbenchSession(options: WorkbenchOptions())
            for line in ["user set alice", "start conversation", "send c1 text hi", "net fail 1", "send c1 text again", "clock advance 1s"]
            {
                _ = session.execute(line)
            }
            let stage = try #require(session.interpreter.world as? EmbeddedStage)
            world = stage.world
            backend = stage.world.backend
        }
        #expect(world == nil, "the world outlived its session")
        #expect(backend == nil, "the backend outlived its session")
    }

    /// Many sessions in one process (`explore` runs thousands) leave no file
    /// open behind them: every client's cache files are closed, and the
    /// world goes with its session. A client's event handler owned the
    /// client, which kept its caches (six descriptors) open for good.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd"), "needs /proc/self/fd"))
    func droppedSessionsLeaveNoFileOpen() throws {
        var folders: [String] = []
        weak var world: (any Stage)?
        for _ in 0..<12 {
            let session = try WorkbenchSession(options: WorkbenchOptions())
            for line in [
                "user set alice", "start conversation", "send c1 text hi", "watch items c1", "net drop",
                "agent say c1 missed", "client new phone2", "app restart", "clock advance 1s",
            ] {
                _ = session.execute(line)
            }
            folders.append((session.interpreter.cacheFolder as NSString).lastPathComponent)
            world = session.interpreter.world
        }
        #expect(world == nil, "the world outlived its session")
        // Only this test's sessions count: other tests run alongside.
        let open = Self.openFiles().filter { path in folders.contains { path.contains("/\($0)/") } }
        #expect(open.isEmpty, "\(open.count) files of finished sessions still open, e.g. \(open.prefix(3))")
    }

    /// What the process's open descriptors point at.
    static func openFiles() -> [String] {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)") }
    }
}
