extension RecordingStore {
    /// Session `session` as an HTML sequence view (``SequenceHTML``), from
    /// its steps, events and traffic as recorded (redacted).
    package func sequenceHTML(of session: RecordedSession) throws(RecordingError) -> String {
        let view = SequenceView(session: session, steps: try steps(of: session.id), traffic: try traffic(of: session.id))
        return SequenceHTML.render(view)
    }
}
