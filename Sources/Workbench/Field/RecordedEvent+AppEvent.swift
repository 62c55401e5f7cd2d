import ChatSDK

extension RecordedEvent.Kind {
    /// What a field recording's event is, from its value (``AppEvent``,
    /// `event.value`): the flight recorder's events are typed there.
    init(_ event: AppEvent) {
        switch event {
        case .session(let state): self = .state(client: "client", change: "session \(state.text)")
        case .connection(let state): self = .state(client: "client", change: "connection \(state.text)")
        case .emission(let watcher, _, let fresh, _): self = .emission(watcher: FlightRecorder.watcherName(watcher), fresh: fresh)
        case .watcherEnded: self = .watcherEnded(watcher: event.source)
        case .message(let id, _, _, _): self = .message(handle: id)
        case .returned, .threw, .warning, .authentication: self = .other
        }
    }
}
