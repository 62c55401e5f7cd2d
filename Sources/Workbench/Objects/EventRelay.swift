import ChatSDK

/// Passes an SDK client's events (its configuration's `onEvent`) to the
/// interpreter at the moment they happen, so that they take their place in
/// the step's log in the order they happened, among provider, network and
/// delegate lines. It outlives an `app restart` (the new SDK client gets
/// the same relay).
// @unchecked Sendable: mutable, and touched only by whoever holds the stage
// (`Stage.exclusively`): the thread running a command, which also runs the
// world's jobs, or in server mode between commands the background pump,
// under the same lock. Never by two threads at once. The handler is set
// before any client work runs.
final class EventRelay: @unchecked Sendable {
    var handler: ((ChatEvent) -> Void)?
    func handle(_ event: ChatEvent) { handler?(event) }
}
