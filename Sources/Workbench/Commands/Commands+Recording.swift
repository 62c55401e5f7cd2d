/// What the recording verbs need from the session's recorder.
protocol RecordingControl: AnyObject {
    /// Stops recording; says what happened.
    func stopRecording() -> String
    /// The sessions of the recording database, as a table.
    func listSessions() throws(RecordingError) -> [StyledText]
    /// The recording database's path.
    var databasePath: String { get }
    /// This session's id while it is being recorded; nil once stopped.
    var sessionInProgress: Int64? { get }
}

extension CommandTable {
    static let recordingCommands: [CommandSpec] = [
        CommandSpec(
            name: "sessions", group: .recording,
            summary: "list the sessions recorded in this session's database (* marks this one)",
            example: "sessions",
            keepsError: true,
            run: { context, _ in
                guard let recording = context.session.recording else {
                    context.output.print(
                        "this session is not being recorded (--no-record, or record stop): chatbench sessions lists the database")
                    return .done
                }
                let listing: Result<[StyledText], RecordingError> = Result { () throws(RecordingError) in
                    try recording.listSessions()
                }
                switch listing {
                case .success(let lines): context.output.print(styledLines: lines)
                case .failure(let error): throw ScriptError(.recording, error.message)
                }
                return .done
            }),
        CommandSpec(
            name: "sessions show", group: .recording,
            arguments: [ArgumentSpec(name: "FILE", kind: .file)],
            options: [
                OptionSpec(name: "--timeline", value: nil, summary: "draw it as client ↔ server exchanges over time"),
                OptionSpec(name: "--traffic", value: nil, summary: "list its tape: each HTTP exchange and WebSocket frame"),
            ],
            summary: "show a recording file's latest session: a bundle, or an app's diagnostics file (its flight recording)",
            example: "sessions show examples/field/support-ticket.sqlite",
            keepsError: true,
            run: { context, invocation in
                context.output.print(
                    styledLines: try RecordingFile.show(
                        invocation.argument(0)!, timeline: invocation.flag("--timeline"), traffic: invocation.flag("--traffic")))
                return .done
            }),
        CommandSpec(
            name: "replay", group: .recording,
            arguments: [ArgumentSpec(name: "SESSION|FILE", kind: .file)],
            options: [
                OptionSpec(name: "--update", value: nil, summary: "re-record the session's output instead of comparing it"),
                OptionSpec(name: "--tape", value: nil, summary: "replay a server-mode session offline from its traffic tape"),
            ],
            summary:
                "replay another recorded session (an id, a name, last: the newest before this one; or a bundle or an app's diagnostics file) in a fresh world and compare its output, as chatbench replay does",
            example: "replay examples/field/support-ticket.sqlite",
            keepsError: true,
            run: { context, invocation in
                let (store, recorded) = try context.session.recordedSession(invocation.argument(0)!, for: "replay")
                let (update, tape) = (invocation.flag("--update"), invocation.flag("--tape"))
                let outcome = try ScriptError.recording { () throws(RecordingError) in
                    try Replayer.replay(recorded, of: store, update: update, tape: tape)
                }
                for note in outcome.notes { context.output.print("note: \(note)") }
                let report = outcome.styledReport(update: update, tape: tape, wallTime: context.session.timing)
                for line in report { context.output.print(line.text, as: line.style) }
                // A divergence fails a script as a failed expect does (the subcommand exits 1).
                if !outcome.identical, !update {
                    context.session.fail(report.first?.text)
                    return .expectFailed
                }
                return .done
            }),
        CommandSpec(
            name: "export", group: .recording,
            arguments: [ArgumentSpec(name: "SESSION|FILE", kind: .file), ArgumentSpec(name: "OUT", kind: .file, optional: true)],
            options: [
                OptionSpec(name: "--bundle", value: .file, valueName: "FILE", summary: "write a self-contained SQLite bundle instead"),
                OptionSpec(name: "--html", value: .file, valueName: "FILE", summary: "write the session's HTML sequence view instead"),
                OptionSpec(name: "--force", value: nil, summary: "overwrite the file if it exists"),
            ],
            summary:
                "write another recorded session (an id, a name, last, or a file) to OUT as a transcript that chatbench test runs, or as a bundle or an HTML page, as chatbench export does",
            example: "export examples/field/support-ticket.sqlite ticket.chat",
            keepsError: true,
            run: { context, invocation in
                let reference = invocation.argument(0)!
                let targets: [SessionExport.Target] = [
                    invocation.argument(1).map { .transcript($0) }, invocation.option("--bundle").map { .bundle($0) },
                    invocation.option("--html").map { .html($0) },
                ].compactMap { $0 }
                guard targets.count == 1, let target = targets.first else {
                    let problem = targets.isEmpty ? "needs one of" : "writes one file: give only one of"
                    throw ScriptError(.syntax, "export \(problem) OUT, --bundle FILE or --html FILE: usage: \(invocation.spec.usage)")
                }
                let (store, recorded) = try context.session.recordedSession(reference, for: "export")
                let (notes, done) = try ScriptError.recording { () throws(RecordingError) in
                    try SessionExport.write(recorded, of: store, source: reference, to: target, force: invocation.flag("--force"))
                }
                for note in notes { context.output.print("note: \(note)") }
                context.output.print(done)
                return .done
            }),
        CommandSpec(
            name: "record stop", group: .recording,
            summary: "stop recording this session (the steps so far stay recorded)",
            example: "record stop",
            keepsError: true,
            run: { context, _ in
                context.output.print(context.session.recording?.stopRecording() ?? "not recording")
                return .done
            }),
    ]
}

extension ScriptError {
    /// What `body` returns; its recording error as a script error, one line.
    static func recording<T>(_ body: () throws(RecordingError) -> T) throws(ScriptError) -> T {
        do {
            return try body()
        } catch {
            throw ScriptError(.recording, error.message)
        }
    }
}

extension CommandSpec {
    /// A verb whose output depends on this session's recording database
    /// (`sessions`, `record stop`): transcripts and replays do not compare
    /// it. `sessions show FILE` reads a file named in the script, so it is
    /// compared; `replay` and `export` read another recording
    /// (``readsOtherRecordings``).
    var readsThisSessionsDatabase: Bool { group == .recording && !["sessions show", "replay", "export"].contains(name) }

    /// `replay`, `export`: what they print comes from another recording (a
    /// session of the database, or a file) and they change nothing in this
    /// world. A replay of this session keeps what they printed rather than
    /// run them again (another session, or a file since rewritten, would
    /// print something else, and a session's replay replaying itself would
    /// never end); a transcript compares them when they name a file.
    var readsOtherRecordings: Bool { name == "replay" || name == "export" }

    /// A verb whose output depends on the machine, not on the world: on this
    /// session's recording database (``readsThisSessionsDatabase``), on
    /// other recordings (``readsOtherRecordings``) or, at a terminal, on the
    /// history file of earlier sessions (`history`). It is recorded; replays
    /// do not compare it and exports leave it out.
    var dependsOnTheMachine: Bool { readsThisSessionsDatabase || readsOtherRecordings || name == "history" }
}
