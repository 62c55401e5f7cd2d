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
            for line in ["user set alice", "watch conversations", "start conversation", "send c1 text hi",
                         "watch items c1", "agent say c1 hello", "client new phone2", "login anonymous", "app restart"] {
                _ = session.execute(line)
            }
            interpreter = session.interpreter
            folder = session.interpreter.cacheFolder
            #expect(FileManager.default.fileExists(atPath: folder))
        }
        #expect(interpreter == nil, "the interpreter outlived its session")
        #expect(!FileManager.default.fileExists(atPath: folder), "the cache folder outlived its session")
    }
}
