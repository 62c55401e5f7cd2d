/// What the recording verbs need from the session's recorder.
protocol RecordingControl: AnyObject {
    /// Stops recording; says what happened.
    func stopRecording() -> String
    /// The sessions of the recording database, as a table.
    func listSessions() throws(RecordingError) -> [String]
}

extension CommandTable {
    static let recordingCommands: [CommandSpec] = [
        CommandSpec(
            name: "sessions", group: .recording,
            summary: "list the sessions recorded in this session's database (* marks this one)",
            example: "sessions",
            keepsError: true,
            run: { interpreter, _ in
                guard let recording = interpreter.recording else {
                    interpreter.print(
                        "this session is not being recorded (--no-record, or record stop): chatbench sessions lists the database")
                    return
                }
                let listing: Result<[String], RecordingError> = Result { () throws(RecordingError) in try recording.listSessions() }
                switch listing {
                case .success(let lines): interpreter.lines += lines
                case .failure(let error): throw ScriptError(.recording, error.message)
                }
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
            run: { interpreter, invocation in
                interpreter.lines += try RecordingFile.show(
                    invocation.argument(0)!, timeline: invocation.flag("--timeline"), traffic: invocation.flag("--traffic"))
            }),
        CommandSpec(
            name: "record stop", group: .recording,
            summary: "stop recording this session (the steps so far stay recorded)",
            example: "record stop",
            keepsError: true,
            run: { interpreter, _ in
                interpreter.print(interpreter.recording?.stopRecording() ?? "not recording")
            }),
    ]
}

extension CommandSpec {
    /// A verb whose output depends on this session's recording database
    /// (`sessions`, `record stop`): transcripts and replays do not compare
    /// it. `sessions show FILE` reads a file named in the script, so it is compared.
    var readsThisSessionsDatabase: Bool { group == .recording && name != "sessions show" }

    /// A verb whose output depends on the machine, not on the world: on this
    /// session's recording database (``readsThisSessionsDatabase``) or, at a
    /// terminal, on the history file of earlier sessions (`history`). It is
    /// recorded; replays do not compare it and exports leave it out.
    var dependsOnTheMachine: Bool { readsThisSessionsDatabase || name == "history" }
}
