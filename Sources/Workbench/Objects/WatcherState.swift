import ChatSDK

/// Where a watcher the session started stands: following its data, with the
/// refresh state of its last emission, or ended (an error, `stop`, the user
/// cleared). Rendered to its name only where it is shown.
enum WatcherState: Equatable, Sendable {
    /// Following; the refresh state of the last emission (refreshing before any).
    case live(RefreshingState)
    case ended

    /// The name shown by `w1.state`, the summary and `wait w1 done`.
    var name: String {
        switch self {
        case .live(let refreshing): refreshing.name
        case .ended: "ended"
        }
    }

    var isEnded: Bool { self == .ended }
}
