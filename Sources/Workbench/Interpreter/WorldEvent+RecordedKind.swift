extension WorldEvent {
    /// What the recording keeps of what the event is (``RecordedEvent/Kind``),
    /// from the event itself: the views draw by it.
    var recordedKind: RecordedEvent.Kind {
        switch self {
        case .client(let name, let event): Self.change(event).map { .state(client: name, change: $0) } ?? .other
        case .request(let name, let answer): .request(name: name, answer: answer)
        case .emission(let watcher, let fresh, _, _): .emission(watcher: watcher, fresh: fresh)
        case .watcherEnded(let watcher, _): .watcherEnded(watcher: watcher)
        case .messageState(let message, _): .message(handle: message)
        case .trace("provider", _): .provider
        case .trace: .other
        }
    }
}
