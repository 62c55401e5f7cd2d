import ChatSDK

extension RecordedEvent.Kind {
    /// The name of a flight recording's one client, whose lane its state
    /// changes are drawn on.
    static let fieldClient = "client"

    /// What a field recording's event is, from its value (``AppEvent``,
    /// `event.value`): the flight recorder's events are typed there.
    init(_ event: AppEvent) {
        switch event {
        case .session(let state): self = .state(client: Self.fieldClient, change: "session \(state.text)")
        case .connection(let state): self = .state(client: Self.fieldClient, change: "connection \(state.text)")
        case .emission(let watcher, _, let fresh, _): self = .emission(watcher: FlightRecorder.watcherName(watcher), fresh: fresh)
        case .watcherEnded: self = .watcherEnded(watcher: event.source)
        case .message(let id, _, _, _): self = .message(handle: id)
        case .returned, .threw: self = .call
        case .warning, .authentication: self = .other
        }
    }
}
