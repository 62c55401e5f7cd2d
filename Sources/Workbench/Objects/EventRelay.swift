import ChatSDK

/// Passes an SDK client's events (its configuration's `onEvent`) to the
/// interpreter at the moment they happen, so that they take their place in
/// the step's log in the order they happened, among provider, network and
/// delegate lines. It outlives an `app restart` (the new SDK client gets
/// the same relay).
// Called only on the stage's executor, which the interpreter's thread
// pumps; the handler is set before any client work runs.
final class EventRelay: @unchecked Sendable {
    var handler: ((ChatEvent) -> Void)?
    func handle(_ event: ChatEvent) { handler?(event) }
}
