import ChatSimulation
import ChatTestSupport
import Foundation
import GRDB
import Synchronization
import Testing

@testable import Workbench

/// A JWT-shaped string (header.payload.signature, base64url).
let sampleJWT = "eyJhbGciOiJIUzI1NiJ9.eyJleHRlcm5hbF9pZCI6ImJvYiIsImV4cCI6MTc2NzIyOTIwMH0.c2lnbmF0dXJlLW9mLXRoZS1hcHA"

private func session(seed: UInt64 = 1) throws -> WorkbenchSession {
    var options = WorkbenchOptions()
    options.seed = seed
    return try WorkbenchSession(options: options)
}

private let demoLines = [
    "user set alice", "watch conversations", "start conversation", "send c1 text \"hi\"",
    "agent say c1 \"hello\"", "expect m1.state == sent", "clock advance 1h",
]

@Suite struct RecordingStoreTests {
    @Test func schemaIsVersionedAndMarked() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("sub/dir/sessions.sqlite").path
        let store = try RecordingStore(path: path)
        let (id, mode, migrations, tables) = try store.database.read { db in
            (
                try Int32.fetchOne(db, sql: "PRAGMA application_id"),
                try String.fetchOne(db, sql: "PRAGMA journal_mode"),
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"),
                try String.fetchAll(
                    db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            )
        }
        #expect(id == RecordingStore.applicationID)
        #expect(mode == "wal")
        #expect(migrations == ["v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12"])
        // `bundle` is in bundle files only (issue 13).
        #expect(tables == ["event", "grdb_migrations", "session", "step", "traffic"])
    }

    /// Opening a recording writes nothing until a session begins: GRDB's
    /// `.wal` set-up filled the empty log of a cleanly closed file with a
    /// dummy transaction at every start (issue 17).
    @Test func openingAnExistingRecordingWritesNothing() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("s.sqlite").path
        _ = try RecordingStore(path: path) // created, and closed: its log is checkpointed and removed
        let store = try RecordingStore(path: path)
        let log = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int
        #expect(log == 0)
        withExtendedLifetime(store) {}
    }

    @Test func eachStepIsCommittedWhenItCompletes() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("s.sqlite").path
        let workbench = try session()
        let recorder = try Recorder(store: try RecordingStore(path: path), workbench: workbench, name: "demo", kind: .script)
        let reader = try RecordingStore(path: path, create: false)
        for (index, line) in demoLines.prefix(4).enumerated() {
            _ = recorder.execute(line)
            _ = recorder.execute("   ") // blank lines are not recorded
            // Another connection sees the step at once.
            #expect(try reader.steps(of: recorder.session.id).count == index + 1)
        }
        let steps = try reader.steps(of: recorder.session.id)
        #expect(steps.map(\.input) == Array(demoLines.prefix(4)))
        #expect(steps[1].events.contains { $0.text.contains("w1 emits") })
        #expect(steps[3].events.map(\.source).contains("m1:"))
        let listed = try reader.session("demo")
        #expect(listed.stepCount == 4 && listed.ended == nil && listed.seed == 1 && listed.kind == .script)
        // The world's own clock is the virtual one: no monotonic time is written beside it (v10, field recordings only).
        let monotonic = try reader.database.read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT (SELECT COUNT(monotonic_time) FROM step) + (SELECT COUNT(monotonic_time) FROM event)
                        + (SELECT COUNT(monotonic_time) FROM traffic)
                    """)
        }
        #expect(monotonic == 0)
        #expect(steps.allSatisfy { $0.deviceClock == nil })
        recorder.finish()
        #expect(try reader.session("demo").ended != nil)
    }

    @Test func concurrentWritersNeverSeeALockedDatabase() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("shared.sqlite").path
        let writers = 6
        let steps = 40
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            do {
                // Each writer opens its own connection, as separate REPLs do.
                let store = try RecordingStore(path: path)
                let session = try store.begin(.init(name: "w\(writer)", seed: 1, kind: .test))
                for number in 1...steps {
                    try store.append(
                        RecordedStep(
                            number: number, input: "clock", output: "clock\n", status: .ok, virtualTime: 0,
                            wallTime: Date(), wallMicroseconds: 1,
                            events: [RecordedEvent(virtualTime: 0, source: "x", text: "x \(number)")]),
                        to: session.id)
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let sessions = try RecordingStore(path: path, create: false).sessions()
        #expect(sessions.count == writers)
        #expect(sessions.allSatisfy { $0.stepCount == steps })
    }

    @Test func secretsNeverReachTheFile() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("s.sqlite").path
        let workbench = try session()
        let recorder = try Recorder(store: try RecordingStore(path: path), workbench: workbench, kind: .script)
        _ = recorder.execute("user set alice")
        _ = recorder.execute("# pasted: \(sampleJWT)")
        // The failure message prints the JWT: the output is redacted too.
        let step = recorder.execute("expect client.user == \"\(sampleJWT)\"")
        #expect(step.output.contains(sampleJWT))
        _ = recorder.execute("login jwt bob --secret hunter2-hunter2")
        recorder.finish()
        let steps = try RecordingStore(path: path, create: false).steps(of: recorder.session.id)
        #expect(steps[1].input == "# pasted: <jwt#1>")
        #expect(steps[2].output.contains("<jwt#1>"))
        #expect(steps[3].input.contains("--secret <secret#1>"))
        // Search every byte of the database (and its WAL) for anything JWT-shaped.
        let jwtShape = try NSRegularExpression(pattern: "eyJ[A-Za-z0-9_-]*\\.eyJ[A-Za-z0-9_-]*\\.")
        for file in [path, path + "-wal"] where FileManager.default.fileExists(atPath: file) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            let text = String(decoding: bytes.map { $0 < 0x20 || $0 > 0x7e ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
            #expect(jwtShape.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) == nil, "in \(file)")
            #expect(!text.contains("hunter2"), "in \(file)")
        }
    }

    /// A file named to be read (a bundle, an app's diagnostics file) of an
    /// older schema is read through a migrated copy: its bytes stay as they
    /// came (a field recording of schema v4, kept as it was written).
    @Test func anOlderFileNamedToBeReadIsNotChanged() throws {
        let field = URL(fileURLWithPath: FieldTypedCallsTests.legacyFixture)
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("ticket.sqlite").path
        try FileManager.default.copyItem(atPath: field.path, toPath: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let migrations = { () throws -> [String] in
            try DatabaseQueue(path: path).read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") }
        }
        #expect(try migrations() == ["v1", "v2", "v3", "v4"])
        do {
            let store = try RecordingStore(path: path, create: false, bundle: true)
            let steps = try store.steps(of: try store.bundledSession().id)
            #expect(steps.count == 8 && steps.allSatisfy { $0.stoppedAfterTicks == nil })
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try migrations() == ["v1", "v2", "v3", "v4"])
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    /// `last` names the newest session, unless a session is named so.
    @Test func lastNamesTheNewestSession() throws {
        let folder = try TemporaryFolder()
        let store = try RecordingStore(path: folder.url.appendingPathComponent("s.sqlite").path)
        for name in ["first", "second"] {
            let recorder = try Recorder(store: store, workbench: try session(), name: name, kind: .script)
            _ = recorder.execute("clock")
            recorder.finish()
        }
        #expect(try store.session("last").name == "second")
        #expect(throws: RecordingError.self) { try store.session("latest") }
        let named = try Recorder(store: store, workbench: try session(), name: "last", kind: .script)
        named.finish()
        let newest = try Recorder(store: store, workbench: try session(), name: "third", kind: .script)
        newest.finish()
        #expect(try store.session("last").name == "last", "a session named last is that one")
    }

    @Test func aNewerSchemaIsRefused() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("s.sqlite").path
        _ = try RecordingStore(path: path)
        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v13')") }
        try queue.close()
        #expect {
            try RecordingStore(path: path)
        } throws: { error in
            let error = error as? RecordingError
            return error?.code == .newerSchema
                && error?.message
                    == "\(path) was written by a newer chatbench (schema v13; this one knows up to v12): upgrade chatbench, or pass --db with another path"
        }
    }

    @Test func missingCorruptAndForeignFilesAreClearErrors() throws {
        let folder = try TemporaryFolder()
        let missing = folder.url.appendingPathComponent("none.sqlite").path
        #expect { try RecordingStore(path: missing, create: false) } throws: { ($0 as? RecordingError)?.code == .missing }
        let corrupt = folder.url.appendingPathComponent("corrupt.sqlite").path
        try Data(String(repeating: "not a database ", count: 200).utf8).write(to: URL(fileURLWithPath: corrupt))
        #expect { try RecordingStore(path: corrupt) } throws: { ($0 as? RecordingError)?.code == .corrupt }
        let foreign = folder.url.appendingPathComponent("foreign.sqlite").path
        let queue = try DatabaseQueue(path: foreign)
        try queue.write { try $0.execute(sql: "CREATE TABLE entry (line TEXT)") }
        try queue.close()
        #expect { try RecordingStore(path: foreign) } throws: { error in
            (error as? RecordingError)?.message
                == "\(foreign) is a SQLite database of something else (tables: entry), not a chatbench recording: pass --db with another path"
        }
    }

    @Test func recordingVerbsInsideTheSession() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("s.sqlite").path
        let workbench = try session()
        let recorder = try Recorder(store: try RecordingStore(path: path), workbench: workbench, name: "here", kind: .repl)
        _ = recorder.execute("clock")
        let listing = recorder.execute("sessions").output
        #expect(listing.hasPrefix("ID  NAME  STARTED"))
        #expect(listing.contains("*1  here"))
        #expect(listing.contains("ok, recording"))
        #expect(recorder.execute("record stop").output == "recording of session 1 \"here\" stopped after 2 steps\n")
        _ = recorder.execute("clock")
        #expect(try recorder.store.steps(of: 1).map(\.input) == ["clock", "sessions"])
        #expect(recorder.execute("record stop").output == "not recording\n")
        let unrecorded = try session()
        #expect(unrecorded.execute("sessions").output.hasPrefix("this session is not being recorded"))
    }
    @Test func aCatchNamesTheRecordingErrorItCatches() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("none.sqlite").path
        var caught = ""
        do { _ = try RecordingStore(path: path, create: false) } catch RecordingError.Code.locked { caught = "locked" } catch RecordingError
            .Code.missing
        { caught = "missing" } catch { caught = "other: \(error)" }
        #expect(caught == "missing")
        #expect(RecordingError.Code(rawValue: "missing") == .missing)
    }
}

@Suite struct ReplayTests {
    private func recorded(_ lines: [String]) throws -> (RecordingStore, RecordedSession, TemporaryFolder) {
        let folder = try TemporaryFolder()
        let store = try RecordingStore(path: folder.url.appendingPathComponent("s.sqlite").path)
        let recorder = try Recorder(store: store, workbench: try session(seed: 5), name: "r", kind: .script)
        for line in lines { _ = recorder.execute(line) }
        recorder.finish()
        return (store, try store.session("r"), folder)
    }

    @Test func anIdenticalReplay() throws {
        let (store, session, _folder) = try recorded(demoLines + ["sessions", "# \(sampleJWT)"])
        _ = _folder
        let outcome = try Replayer.replay(session, steps: try store.steps(of: session.id))
        #expect(outcome.identical)
        #expect(outcome.stepsRun == demoLines.count + 2)
        #expect(outcome.virtualMilliseconds >= 3_600_000)
        #expect(outcome.seconds < 5)
    }

    /// A step's status is a value from the interpreter to the readers
    /// (issue 30): the file keeps its name, `sessions show --json` writes
    /// it, and a name no chatbench writes is no status but a damaged
    /// step, said so (before, it was read as a string and shown as it was).
    @Test func aStepsStatusIsReadAsTheValueItWas() throws {
        let (store, session, _folder) = try recorded(["user set alice", "expect client.user == \"bob\"", "frobnicate"])
        _ = _folder
        let steps = try store.steps(of: session.id)
        #expect(steps.map(\.status) == [.ok, .expectFailed, .scriptError])
        #expect(session.status == .scriptError)
        let json = try JSONEncoder().encode(steps[1])
        #expect(String(decoding: json, as: UTF8.self).contains(#""status":"expectFailed""#))
        #expect(try JSONDecoder().decode(RecordedStep.self, from: json) == steps[1])
        try store.write { db in try db.execute(sql: "UPDATE step SET status = 'teleported' WHERE number = 2") }
        #expect {
            try store.steps(of: session.id)
        } throws: { error in
            let error = error as? RecordingError
            return error?.code == .corrupt && error?.message.contains("a status this version does not know: teleported") == true
        }
    }

    /// So is a session's mode: a replay decides by the value (an embedded
    /// session replays, a server's needs its tape), and a mode no
    /// chatbench writes is refused as damaged, naming it (before, it was a
    /// string: such a session was "recorded against a server").
    @Test func aSessionsModeIsReadAsTheValueItWas() throws {
        let (store, session, _folder) = try recorded(["user set alice"])
        _ = _folder
        #expect(session.mode == .embedded && !session.isFieldRecording)
        #expect(String(decoding: try JSONEncoder().encode(session), as: UTF8.self).contains(#""mode":"embedded""#))
        try store.write { db in try db.execute(sql: "UPDATE session SET mode = 'underwater'") }
        #expect {
            try store.session("r")
        } throws: { error in
            let error = error as? RecordingError
            return error?.code == .corrupt && error?.message.contains("a mode this version does not know: underwater") == true
        }
    }

    /// And how it was driven: a value from the recorder to the listing
    /// (issue 30); the JSON keeps the name, and a kind no chatbench
    /// writes is refused as damaged, naming it.
    @Test func aSessionsKindIsReadAsTheValueItWas() throws {
        let (store, session, _folder) = try recorded(["user set alice"])
        _ = _folder
        #expect(session.kind == .script && session.idTag == nil)
        let json = String(decoding: try JSONEncoder().encode(session), as: UTF8.self)
        #expect(json.contains(#""kind":"script""#) && !json.contains("idTag"), "\(json)")
        try store.write { db in try db.execute(sql: "UPDATE session SET kind = 'séance'") }
        #expect {
            try store.session("r")
        } throws: { error in
            let error = error as? RecordingError
            return error?.code == .corrupt && error?.message.contains("a kind this version does not know: séance") == true
        }
    }

    @Test func aTamperedOutputDiverges() throws {
        let (store, session, _folder) = try recorded(demoLines)
        _ = _folder
        try store.write { db in
            try db.execute(sql: "UPDATE step SET output = replace(output, 'm1: sent', 'm1: failed') WHERE number = 4")
        }
        let outcome = try Replayer.replay(session, steps: try store.steps(of: session.id))
        let divergence = try #require(outcome.divergence)
        #expect(divergence.step == 4)
        #expect(divergence.input == "send c1 text \"hi\"")
        let changed = divergence.diff.filter { !$0.hasPrefix("  ") }
        #expect(changed.count == 2)
        #expect(changed.first?.hasPrefix("-   [") == true && changed.first?.hasSuffix("] m1: failed") == true)
        #expect(changed.last?.hasPrefix("+   [") == true && changed.last?.hasSuffix("] m1: sent") == true)
        #expect(outcome.stepsRun == 4)
        // The report says what each line is, as the diff made it, for a
        // terminal's colours (issue 30): never read back from its text.
        let report = outcome.styledReport(update: false, tape: false)
        #expect(report.first?.style == .failure && report.first?.text.contains("diverged at step 4") == true)
        #expect(report.filter { $0.style == .removed }.map(\.text) == [changed.first])
        #expect(report.filter { $0.style == .added }.map(\.text) == [changed.last])
        #expect(report.map(\.text) == outcome.report(update: false, tape: false))

        let updated = try Replayer.replay(session, steps: try store.steps(of: session.id), update: true)
        #expect(updated.changedSteps == 1 && updated.stepsRun == demoLines.count)
        try store.replaceSteps(of: session.id, with: updated.steps)
        #expect(try Replayer.replay(session, steps: try store.steps(of: session.id)).identical)
    }

    /// At a terminal `history` lists earlier sessions' lines too: what it
    /// printed depends on the machine, so a replay records it, does not
    /// compare it, and says so; an export leaves it out (issue 30).
    @Test func historyAtATerminalDoesNotMakeASessionUnreplayable() throws {
        let folder = try TemporaryFolder()
        let store = try RecordingStore(path: folder.url.appendingPathComponent("s.sqlite").path)
        let workbench = try session(seed: 5)
        workbench.historySource = { ["user set carol", "quit", "user set dave", "history"] }
        let recorder = try Recorder(store: store, workbench: workbench, name: "h", kind: .repl)
        for line in ["user set dave", "history"] { _ = recorder.execute(line) }
        recorder.finish()
        let recorded = try store.session("h")
        let steps = try store.steps(of: recorded.id)
        #expect(steps[1].output.contains("user set carol"))
        let outcome = try Replayer.replay(recorded, steps: steps)
        #expect(outcome.identical)
        #expect(outcome.stepsRun == 2)
        #expect(outcome.notes.contains("step 2 (history) depends on the machine, not the world: recorded, not compared"))
        let exported = Transcript.export(recorded, steps: steps)
        #expect(exported.contains("> user set dave") && !exported.contains("> history"))
    }

    /// A step Ctrl-C stopped replays up to where it stopped, not to its end
    /// (issue 30): `clock advance 400d` stopped 10 days in replays in a
    /// moment and identically, and so do the steps after it. A recording
    /// that kept the instant only (made before the stop's point was
    /// counted) stops there too. Here the Ctrl-C is staged after a number
    /// of the world's units of work, as Ctrl-C lands between them, on a
    /// world with its own interruption (the process's would stop other tests).
    @Test func anInterruptedStepReplaysUpToWhereItStopped() throws {
        let folder = try TemporaryFolder()
        let store = try RecordingStore(path: folder.url.appendingPathComponent("s.sqlite").path)
        var options = WorkbenchOptions()
        options.seed = 5
        options.interruption = Interruption()
        let workbench = try WorkbenchSession(options: options)
        let recorder = try Recorder(store: store, workbench: workbench, name: "i", kind: .repl)
        for line in ["user set alice", "start conversation", "send c1 text \"hi\""] { _ = recorder.execute(line) }
        let world = try #require((workbench.interpreter.world as? EmbeddedStage)?.world)
        world.interruption.stop(atTick: world.interruption.ticks + 1_000)
        #expect(recorder.execute("clock advance 400d").status == .interrupted)
        world.interruption.stop(atTick: nil)
        let stoppedAt = world.now.milliseconds
        for line in ["clock", "send c1 text \"after\"", "expect m2.state == sent"] { _ = recorder.execute(line) }
        recorder.finish()
        let recorded = try store.session("i")
        let steps = try store.steps(of: recorded.id)
        #expect(steps[3].status == .interrupted && steps[3].stoppedAfterTicks == 1_000)
        #expect(stoppedAt - steps[0].virtualTime < 30 * 86_400_000)
        let outcome = try Replayer.replay(recorded, steps: steps)
        #expect(outcome.divergence == nil)
        #expect(outcome.identical && outcome.stepsRun == 7)
        #expect(outcome.virtualMilliseconds < 30 * 86_400_000)
        try store.write { db in try db.execute(sql: "UPDATE step SET stopped_after_ticks = NULL") }
        let byInstant = try Replayer.replay(recorded, steps: try store.steps(of: recorded.id))
        #expect(byInstant.steps.count >= 4 && byInstant.steps[3].virtualTime == stoppedAt)
    }

    @Test func aVerbThisVersionLacksIsNamed() throws {
        let (store, session, _folder) = try recorded(["clock"])
        _ = _folder
        try store.write { db in try db.execute(sql: "UPDATE step SET input = 'teleport c1' WHERE number = 1") }
        let outcome = try Replayer.replay(session, steps: try store.steps(of: session.id))
        #expect(outcome.divergence?.hint?.contains("does not know a verb the session used") == true)
    }

    @Test func aServerModeSessionNeedsTheTape() throws {
        var session = try recorded(["clock"]).1
        session.mode = .server
        #expect { try Replayer.replay(session, steps: []) } throws: { ($0 as? RecordingError)?.code == .unsupported }
    }

    @Test func aBundleIsSelfContainedAndReplays() throws {
        let (store, session, folder) = try recorded(demoLines)
        let bundlePath = folder.url.appendingPathComponent("bug.sqlite").path
        try store.exportBundle(session.id, to: bundlePath)
        #expect(!FileManager.default.fileExists(atPath: bundlePath + "-wal"))
        let bundle = try RecordingStore(path: bundlePath, create: false, bundle: true)
        let bundled = try bundle.bundledSession()
        #expect(bundled.uuid == session.uuid && bundled.seed == 5 && bundled.platform == RecordingStore.platform)
        #expect(try Replayer.replay(bundled, steps: try bundle.steps(of: bundled.id)).identical)
        #expect(throws: RecordingError.self) { try store.exportBundle(session.id, to: bundlePath) }
        // The bundle has its `bundle` row; the file it came from has no such table.
        #expect(try bundle.database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM bundle") } == 1)
        // It names the file it came from, not the recording machine's folders (issue 30).
        let source = try bundle.database.read { try String.fetchOne($0, sql: "SELECT source FROM bundle") }
        #expect(source == (store.path as NSString).lastPathComponent && source?.contains("/") == false)
        #expect(try store.database.read { try $0.tableExists("bundle") } == false)
    }

    @Test func anExportedTranscriptPasses() throws {
        let (store, session, folder) = try recorded(demoLines + ["sessions", "> odd", "# \(sampleJWT)"])
        let text = Transcript.export(session, steps: try store.steps(of: session.id))
        #expect(text.contains("# seed: 5\n"))
        #expect(!text.contains("> sessions"))
        #expect(text.contains("<jwt#1>"))
        let path = folder.url.appendingPathComponent("exported.chat").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let result = TranscriptRunner.run(path: path)
        #expect(result.passed, "\(result.failures)")
    }
}
