import ChatSDK

/// What a replay or an export reads of an event a field recording's client
/// told its app: what a call returned, a message's state, the connection's
/// state. Made from the recorded value (``AppEvent``, the event's `value`
/// column); only a recording made before that column has it read from the
/// event's text (``init(legacy:)``).
package enum FieldEvent: Sendable, Hashable {
    /// `call: sendMessage returned m-1 toBeSent`: the call's name and the
    /// id of the message or conversation it returned.
    case returned(call: String, id: String)
    /// `m-1: sent "hi"`: the state, without a failed one's error.
    case message(id: String, state: SendState.Kind)
    /// `client.connection waitingForNetwork(offline)`.
    case connection(AppEvent.Connection)

    /// Nil for an event of another kind.
    package init?(_ event: RecordedEvent) {
        guard let json = event.valueJSON else {
            self.init(legacy: event)
            return
        }
        switch AppEvent(json: json) {
        case .returned(let call, .message(let id, _, _))?, .returned(let call, .conversation(let id))?: self = .returned(call: call, id: id)
        case .message(let id, let state, _, _)?: self = .message(id: id, state: state)
        case .connection(let state)?: self = .connection(state)
        default: return nil
        }
    }

    /// LEGACY, for files recorded before schema v7 only (such as
    /// examples/field/support-ticket.sqlite): reads the event back from
    /// the text the recorder wrote (`call: NAME returned ID …`, `ID: STATE …`
    /// under the source `ID:`, its state as ``SendState/Kind/legacy(_:)``
    /// reads it, `client.connection STATE` under the source
    /// `client.connection`, of its states those without a text of their
    /// own and `waitingForNetwork(offline)`). Never used for an event that
    /// has its value.
    init?(legacy event: RecordedEvent) {
        if event.source == "call", let m = event.text.wholeMatch(of: /call: (\w+) returned (\S+).*/) {
            self = .returned(call: String(m.1), id: String(m.2))
        } else if event.source == "client.connection", let state = Self.legacyConnection[event.text] {
            self = .connection(state)
        } else if event.source.hasSuffix(":"), event.source != "call",
            let m = event.text.wholeMatch(of: /(\S+): (\w+(?:\(\w+\))?)(?: .*)?/), let state = SendState.Kind.legacy(String(m.2))
        {
            self = .message(id: String(m.1), state: state.kind)
        } else {
            return nil
        }
    }

    private static let legacyConnection: [String: AppEvent.Connection] = [
        "client.connection disconnected": .disconnected, "client.connection connecting": .connecting,
        "client.connection connected": .connected, "client.connection waitingForNetwork(offline)": .waitingForNetwork(reason: .offline),
    ]
}
