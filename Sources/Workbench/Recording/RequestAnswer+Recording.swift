import ChatCore
import ChatSDK
import ChatSimulation

extension RequestAnswer {
    /// Its texts passed through `redact`, as the event's line is (W6): a
    /// refusal's code and a fault's verb.
    func redacted(_ redact: (String) -> String) -> Self {
        switch self {
        case .ok, .unknownFailure: self
        case .refused(let code): .refused(code: WireError.Code(rawValue: redact(code.rawValue)))
        case .failed(let kind, let cause): .failed(kind: TransportError.Kind(rawValue: redact(kind.rawValue)), cause: cause.map(redact))
        case .answerLost(let cause): .answerLost(cause: redact(cause))
        }
    }

    /// The answer in the `event.kind` column's JSON: its `Codable`
    /// encoding with sorted keys, written by hand as the rest of the kind
    /// is (checked against the encoder in EventKindTests).
    func write(_ json: inout JSONText) {
        switch self {
        case .ok: json.object("ok", [:])
        case .refused(let code): json.object("refused", ["code": .text(code.rawValue)])
        case .failed(let kind, let cause): json.object("failed", ["cause": cause.map(JSONText.Value.text), "kind": .text(kind.rawValue)])
        case .answerLost(let cause): json.object("answerLost", ["cause": .text(cause)])
        case .unknownFailure: json.object("unknownFailure", [:])
        }
    }
}
