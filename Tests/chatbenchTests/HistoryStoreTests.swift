import ChatTestSupport
import Foundation
import Testing

@testable import chatbench

@Suite struct HistoryStoreTests {
    @Test func keepsLinesInOrderAndSkipsConsecutiveDuplicates() throws {
        let folder = try TemporaryFolder()
        let store = try HistoryStore(directory: folder.url)
        #expect(try store.append("one"))
        #expect(try !store.append("one"))
        #expect(try store.append("two"))
        #expect(try store.append("one"))
        #expect(try store.recentLines() == ["one", "two", "one"])
        #expect(try store.recentLines(limit: 2) == ["two", "one"])
    }

    @Test func survivesARestart() throws {
        let folder = try TemporaryFolder()
        do {
            let store = try HistoryStore(directory: folder.url)
            try store.append("before restart")
        }
        let reopened = try HistoryStore(directory: folder.url)
        #expect(try reopened.recentLines() == ["before restart"])
        #expect(try !reopened.append("before restart"))
    }

    @Test func createsItsFolderUnderTheXDGStateDirectory() throws {
        let folder = try TemporaryFolder()
        let directory = StateDirectory.url(environment: ["XDG_STATE_HOME": folder.url.path, "HOME": "/nowhere"])
        #expect(directory.path == folder.url.appendingPathComponent("chatbench").path)
        _ = try HistoryStore(directory: directory)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(HistoryStore.fileName).path))
        let fallback = StateDirectory.url(environment: ["XDG_STATE_HOME": "relative", "HOME": "/home/u"])
        #expect(fallback.path == "/home/u/.local/state/chatbench")
    }
}

@Suite struct HistoryRecorderTests {
    final class Editor {
        var lines: [String] = []
    }

    @Test func storesRedactedLinesOnlyAndNoBlankOrRepeatedOnes() throws {
        let folder = try TemporaryFolder()
        let store = try HistoryStore(directory: folder.url)
        let engine = FakeEngine()
        let editor = Editor()
        var recorder = HistoryRecorder(
            store: store, redact: engine.historyLine(for:), addToEditor: { editor.lines.append($0) })
        for line in ["login jwt alice", "secret hunter2", "secret hunter2", "forget me", "   ", "", "whoami"] {
            recorder.remember(line)
        }
        let expected = ["login jwt alice", "secret <secret#1>", "whoami"]
        #expect(editor.lines == expected)
        #expect(try store.recentLines() == expected)
        #expect(try !store.recentLines().joined().contains("hunter2"))
    }

    @Test func loadsTheStoreIntoTheEditorAfterARestart() throws {
        let folder = try TemporaryFolder()
        do {
            var recorder = HistoryRecorder(
                store: try HistoryStore(directory: folder.url), redact: { $0 }, addToEditor: { _ in })
            recorder.remember("first")
            recorder.remember("second")
        }
        let editor = Editor()
        var recorder = HistoryRecorder(
            store: try HistoryStore(directory: folder.url), redact: { $0 }, addToEditor: { editor.lines.append($0) })
        recorder.loadIntoEditor()
        #expect(editor.lines == ["first", "second"])
        recorder.remember("second") // repeats the last line of the previous session
        #expect(editor.lines == ["first", "second"])
    }

    @Test func aFailingStoreWarnsOnceAndTheREPLGoesOn() throws {
        let folder = try TemporaryFolder()
        let store = try HistoryStore(directory: folder.url)
        // Make the database read-only underneath the store.
        let file = folder.url.appendingPathComponent(HistoryStore.fileName)
        try FileManager.default.removeItem(at: file)
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
        let editor = Editor()
        var warnings: [String] = []
        var recorder = HistoryRecorder(
            store: store, redact: { $0 }, addToEditor: { editor.lines.append($0) }, warn: { warnings.append($0) })
        recorder.remember("one")
        recorder.remember("two")
        #expect(editor.lines == ["one", "two"])
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("chatbench: warning: history is not being saved:") == true)
        #expect(warnings.first?.contains("\n") == false)
    }
}
