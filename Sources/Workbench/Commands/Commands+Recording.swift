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
            name: "record stop", group: .recording,
            summary: "stop recording this session (the steps so far stay recorded)",
            example: "record stop",
            keepsError: true,
            run: { interpreter, _ in
                interpreter.print(interpreter.recording?.stopRecording() ?? "not recording")
            }),
    ]
}
