import ChatTestSupport
import Foundation
import GRDB
import Testing

@testable import Workbench

/// `replay` and `export` at the prompt (issue 30): the verbs run what
/// `chatbench replay` and `chatbench export` run, on another session of
/// the REPL's recording database or on a file; what they print comes from
/// that other recording, so a replay of the session that ran them keeps
/// it as recorded and an export leaves them out.
@Suite struct ReplayVerbTests {
    static let fieldFile = FieldExportTests.fixture

    private func workbench(seed: UInt64 = 5) throws -> WorkbenchSession {
        var options = WorkbenchOptions()
        options.seed = seed
        return try WorkbenchSession(options: options)
    }

    /// A database holding a finished session "a", and a recorder of a second
    /// session "b" in progress.
    private func twoSessions() throws -> (RecordingStore, Recorder, TemporaryFolder) {
        let folder = try TemporaryFolder()
        let store = try RecordingStore(path: folder.url.appendingPathComponent("s.sqlite").path)
        let first = try Recorder(store: store, workbench: try workbench(), name: "a", kind: .repl)
        for line in ["user set alice", "start conversation", "send c1 text \"hi\"", "clock advance 1m"] { _ = first.execute(line) }
        first.finish()
        let second = try Recorder(store: store, workbench: try workbench(seed: 7), name: "b", kind: .repl)
        return (store, second, folder)
    }

    @Test func replayAtThePromptPrintsWhatTheSubcommandPrints() throws {
        let (store, recorder, _folder) = try twoSessions()
        _ = _folder
        let a = try store.session("a")
        let expected = try Replayer.replay(a, of: store).report(update: false, tape: false, wallTime: false)
        #expect(expected == ["session 1 \"a\": 4 steps replayed, identical (1m0.047s of virtual time)"])
        // At the prompt, last is the newest session before this one.
        let last = recorder.execute("replay last")
        #expect(last.status == .ok)
        #expect(last.output == expected.joined(separator: "\n") + "\n")
        #expect(recorder.execute("replay a").output == last.output)
        #expect(recorder.execute("replay 1").output == last.output)
        // With timing on, it says how long it took, as the subcommand does.
        _ = recorder.execute("timing on")
        #expect(recorder.execute("replay a").output.contains("of virtual time in "))
    }

    @Test func aDivergingReplayFailsLikeAFailedExpect() throws {
        let (store, recorder, _folder) = try twoSessions()
        _ = _folder
        try store.write { db in
            try db.execute(sql: "UPDATE step SET output = replace(output, 'm1: sent', 'm1: failed') WHERE number = 3")
        }
        let result = recorder.execute("replay a")
        #expect(result.status == .expectFailed)
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.prefix(3) == ["session 1 \"a\" diverged at step 3: > send c1 text \"hi\"", "--- recorded", "+++ replayed"])
        #expect(result.failure == lines.first)
    }

    @Test func badInputIsOneLineAndTheSessionInProgressIsRefused() throws {
        let (store, recorder, folder) = try twoSessions()
        let out = folder.url.appendingPathComponent("out.chat").path
        let inProgress =
            "script error: session 2 \"b\" is this one, still being recorded: replay or export it once it has ended (record stop, or quit)"
        let unknown = "script error: no session \"nine\" in \(store.path): `chatbench sessions --db \(store.path)` lists them"
        let cases: [(String, String)] = [
            ("replay b", inProgress),
            ("replay 2", inProgress),
            ("replay nine", unknown),
            ("replay", "script error: replay needs SESSION|FILE: usage: replay SESSION|FILE [--update] [--tape]"),
            (
                "export a",
                "script error: export needs one of OUT, --bundle FILE or --html FILE: usage: export SESSION|FILE [OUT] [--bundle FILE] [--html FILE] [--force]"
            ),
            ("export nine \(out)", unknown),
        ]
        for (line, message) in cases {
            let result = recorder.execute(line)
            #expect(result.status == .scriptError, "\(line)")
            #expect(result.output == message + "\n", "\(line)")
        }
        let missing = recorder.execute("replay \(folder.url.path)/none.sqlite")
        #expect(missing.status == .scriptError)
        #expect(
            missing.output
                == "script error: no recording file at \(folder.url.path)/none.sqlite: name a bundle (export SESSION --bundle FILE) or an app's diagnostics file\n"
        )
        let transcript = recorder.execute("replay \(out)")
        #expect(
            transcript.output
                == "script error: \(out) is a transcript, not a recording: run it with chatbench test \(out) (or run FILE at the prompt)\n")
        #expect(!FileManager.default.fileExists(atPath: out))
        // Once this session's recording has stopped, it can be replayed.
        _ = recorder.execute("record stop")
        let itself = recorder.execute("replay b")
        #expect(
            itself.output
                == "note: steps 1, 2, 3, 4, 5, 6, 7, 8 (replay, export) read other recordings, not the world: kept as recorded, not run again\n"
                + "session 2 \"b\": 8 steps replayed, identical (0s of virtual time)\n")
    }

    @Test func exportAtThePromptWritesTheTranscriptTheSubcommandWrites() throws {
        let (store, recorder, folder) = try twoSessions()
        let out = folder.url.appendingPathComponent("a.chat").path
        let result = recorder.execute("export last \(out)")
        #expect(result.status == .ok)
        #expect(result.output == "wrote session 1 \"a\" to \(out) (run it with: chatbench test \(out))\n")
        let a = try store.session("a")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == Transcript.export(a, steps: try store.steps(of: a.id)))
        #expect(TranscriptRunner.run(path: out).passed)
        // An existing file is kept unless --force.
        let again = recorder.execute("export a \(out)")
        #expect(again.status == .scriptError)
        #expect(again.output == "script error: \(out) already exists: choose another name, or pass --force\n")
        #expect(recorder.execute("export a \(out) --force").status == .ok)
    }

    /// `--bundle` and `--html` write what `chatbench export --bundle/--html`
    /// write (one code, SessionExport): a bundle that replays as the
    /// session did, and the session's sequence view.
    @Test func exportAtThePromptWritesABundleOrAnHTMLPage() throws {
        let (store, recorder, folder) = try twoSessions()
        let bundle = folder.url.appendingPathComponent("a.sqlite").path
        let html = folder.url.appendingPathComponent("a.html").path
        let written = recorder.execute("export a --bundle \(bundle)")
        #expect(written.output == "wrote session 1 \"a\" to \(bundle) (replay it with: chatbench replay \(bundle))\n")
        #expect(recorder.execute("replay \(bundle)").output == "session 1 \"a\": 4 steps replayed, identical (1m0.047s of virtual time)\n")
        #expect(recorder.execute("export a --bundle \(bundle)").status == .scriptError)
        #expect(recorder.execute("export a --bundle \(bundle) --force").status == .ok)
        #expect(recorder.execute("export a --html \(html)").output == "wrote session 1 \"a\" to \(html) (open it in a browser)\n")
        #expect(try String(contentsOfFile: html, encoding: .utf8) == store.sequenceHTML(of: try store.session("a")))
        #expect(
            recorder.execute("export a --html \(html)").output
                == "script error: \(html) already exists: choose another name, or pass --force\n")
        let both = recorder.execute("export a out.chat --html \(html) --force")
        #expect(both.status == .scriptError)
        #expect(both.output.hasPrefix("script error: export writes one file: give only one of OUT, --bundle FILE or --html FILE"))
        #expect(!FileManager.default.fileExists(atPath: "out.chat"))
    }

    /// Without a recording database (--no-record, `chatbench test`), a file
    /// still replays and exports; a session id cannot be looked up.
    @Test func withoutARecordingAFileStillReplaysAndExports() throws {
        let session = try workbench()
        let replay = session.execute("replay \(Self.fieldFile)")
        #expect(replay.status == .ok)
        #expect(replay.output == "session 1 \"Acme Shop 3.2 (iOS)\": 8 steps replayed from the tape, identical (41.135s of virtual time)\n")
        let last = session.execute("replay last")
        #expect(last.status == .scriptError)
        #expect(
            last.output
                == "script error: this session is not recorded, so there is no database to find session \"last\" in: name a recording file, or run chatbench replay last [--db PATH]\n"
        )
        let folder = try TemporaryFolder()
        let out = folder.url.appendingPathComponent("ticket.chat").path
        let export = session.execute("export \(Self.fieldFile) \(out)")
        #expect(export.status == .ok)
        #expect(export.output.hasSuffix("wrote session 1 \"Acme Shop 3.2 (iOS)\" to \(out) (run it with: chatbench test \(out))\n"))
        #expect(TranscriptRunner.run(path: out).passed)
    }

    /// What the verbs print depends on other recordings: a replay of the
    /// session that ran them keeps their output as recorded without running
    /// them again (a session replaying `last` would otherwise replay
    /// itself, without end), and an export leaves them out, as `history`.
    @Test func aSessionThatRanThemReplaysAndExportsWithoutThem() throws {
        let (store, recorder, folder) = try twoSessions()
        let out = folder.url.appendingPathComponent("a.chat").path
        for line in ["user set carol", "replay last", "export a \(out)", "start conversation"] { _ = recorder.execute(line) }
        recorder.finish()
        // Now "last" is b itself, and a is changed under it.
        try FileManager.default.removeItem(atPath: out)
        let b = try store.session("b")
        let steps = try store.steps(of: b.id)
        let outcome = try Replayer.replay(b, of: store)
        #expect(outcome.identical && outcome.stepsRun == 4)
        #expect(outcome.notes == ["steps 2, 3 (replay, export) read other recordings, not the world: kept as recorded, not run again"])
        #expect(!FileManager.default.fileExists(atPath: out))
        let exported = Transcript.export(b, steps: steps)
        #expect(exported.contains("> user set carol") && exported.contains("> start conversation"))
        #expect(!exported.contains("> replay") && !exported.contains("> export"))
    }

    /// A transcript compares `replay FILE` and `export FILE OUT` (they read
    /// a file the script names), not `replay ID` (the database's).
    @Test func aTranscriptComparesThemOnlyOnAFile() throws {
        let session = try workbench()
        #expect(session.isRecordingCommand("replay last"))
        #expect(session.isRecordingCommand("export 3 out.chat"))
        #expect(!session.isRecordingCommand("replay \(Self.fieldFile)"))
        #expect(!session.isRecordingCommand("export examples/field/support-ticket.sqlite out.chat"))
        #expect(!session.isRecordingCommand("replay"))
        #expect(session.dependsOnTheMachine("replay \(Self.fieldFile)"))
        #expect(session.readsOtherRecordings("export last out.chat") && !session.readsOtherRecordings("history"))
    }
}
