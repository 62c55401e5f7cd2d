package import ChatCore

extension TrafficEntry {
    /// What an entry is, as its producer knew it (issue 30): every reader
    /// decides by this, never by the entry's ``TrafficEntry/summary``,
    /// which is only its rendering for people. The `traffic.kind` column
    /// keeps it (JSON, keys sorted, from schema v8).
    package enum Kind: Sendable, Hashable, Codable {
        /// An SDK request (`http`, `out`): `POST /v1/conversations/c-1/messages`.
        case request(method: String, path: String, query: [String: String])
        /// Its answer (`http`, `in`): `ok sent`, `error expiredToken`, `error offline`.
        case answer(Outcome)
        /// An event stream's opening (`ws`, `out`): `open after=4`, `open after=-`.
        case open(afterUserSeq: Int64?)
        /// The SDK closed its event stream (`ws`, `out`): `close`.
        case close
        /// The event stream opened (`ws`, `in`): `ready`.
        case ready
        /// The event stream would not open (`ws`, `in`): `refused invalidToken`.
        case refused(Outcome)
        /// A frame (`ws`, `in`): `event #5 messageCreated`.
        case event(seq: Int64, name: String)
        /// The event stream ended (`ws`, `in`): `closed: reason`, ended
        /// `by` the server, the network or the client.
        case closed(reason: String, by: ClosedBy)
        /// A call of the other side (origin ``TrafficEntry/Origin/otherSide``, `out`):
        /// its name and typed arguments, shown `agentSay(c-1, "Hello")`. Its
        /// answer is an ``answer(_:)``: `ok` or `error CODE`.
        case call(Call)
        /// A change of the network's conditions or a fault (origin
        /// ``TrafficEntry/Origin/network``).
        case fault(Fault)
        /// A row of a file written before v8 whose summary the legacy
        /// reader (``TrafficEntry/Kind/init(legacySummary:channel:direction:origin:)``)
        /// cannot type: only shown.
        case untyped(String)

        // A case's one unlabelled value is keyed by the case's name
        // (`{"answer":{"answer":{"ok":{}}}}`), as in AppCall and AppEvent,
        // where Swift's own coding keys it by position (`_0`). Rows written
        // so before are read by the LEGACY reader (``init(legacyJSON:)``).
        enum AnswerCodingKeys: String, CodingKey { case _0 = "answer" }
        enum RefusedCodingKeys: String, CodingKey { case _0 = "refused" }
        enum CallCodingKeys: String, CodingKey { case _0 = "call" }
        enum FaultCodingKeys: String, CodingKey { case _0 = "fault" }
        enum UntypedCodingKeys: String, CodingKey { case _0 = "untyped" }
    }

    /// How a request, a call or an event stream's opening ended.
    package enum Outcome: Sendable, Hashable, Codable {
        /// Answered: `ok sent` (the response's case), or `ok` alone (the other side's call).
        case ok(response: String?)
        /// The server said no: `error expiredToken` (its code).
        case rejected(code: String)
        /// Lost on the way, the device offline: `error offline`.
        case offline
        /// Lost on the way otherwise, or any other failure: `error failed`.
        case failed
        /// The SDK stopped waiting: `error cancelled`.
        case cancelled

        /// Whether it never got an answer from the server.
        package var isLost: Bool {
            switch self {
            case .offline, .failed, .cancelled: true
            case .ok, .rejected: false
            }
        }
    }

    /// A change of the network's conditions or a fault. `device` names the
    /// one link it is about (nil: the whole network).
    package enum Fault: Sendable, Hashable, Codable {
        case offline(device: String?)
        case online(device: String?)
        case latency(milliseconds: Int64, device: String?)
        /// `net fail N`: `kind` is the failure's kind, nil for a reset.
        case failNext(count: Int, kind: String?, device: String?)
        /// `net drop`: the event streams cut as the server hanging up.
        case drop(device: String?)
        /// `--in-flight`: requests on the wire lost at `point` (`before-commit`, `after-commit`).
        case cut(count: Int, point: String, device: String?)
        /// `app restart`: the app on `device` restarted.
        case restart(device: String)
        /// Against a server: `request` (its name) of `device` lost above the tape.
        case lost(request: String, device: String)
    }
}

extension TrafficEntry.Kind {
    /// The request `request` is on the tape.
    package init(_ request: WireRequest) {
        let route = HTTPWire.route(for: request, withBody: false)
        self = .request(method: route.method, path: route.path, query: route.query)
    }

    /// How `answer` ended.
    package init(answer: TapeAnswer, refused: Bool = false) {
        let outcome = answer.outcome
        self = refused ? .refused(outcome) : .answer(outcome)
    }

    /// Whether it is a frame of an event stream: an event or the server's close.
    package var isFrame: Bool {
        switch self {
        case .event, .closed: true
        default: false
        }
    }

    /// The path of a request; nil for other kinds.
    package var path: String? {
        if case .request(_, let path, _) = self { path } else { nil }
    }

    /// Whether it is an event stream's opening.
    package var isOpening: Bool {
        if case .open = self { true } else { false }
    }

    /// The outcome of an answer or a refusal; nil for other kinds.
    package var outcome: TrafficEntry.Outcome? {
        switch self {
        case .answer(let outcome), .refused(let outcome): outcome
        default: nil
        }
    }

    /// Whether it is an answer or refusal that never came from the server.
    package var isLost: Bool { outcome?.isLost ?? false }
}

extension TapeAnswer {
    /// How it ended.
    package var outcome: TrafficEntry.Outcome {
        if let response { return .ok(response: response.tapeName) }
        if let code = error?.code { return .rejected(code: code.rawValue) }
        if let lost { return lost.offline ? .offline : .failed }
        if cancelled == true { return .cancelled }
        return .failed
    }
}
