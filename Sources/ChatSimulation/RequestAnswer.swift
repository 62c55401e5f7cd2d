import ChatCore
import ChatSDK

/// What came of a request on the network, as the fault layer
/// (``FaultInjectingTransport``) saw it, in front of the embedded backend,
/// a server or a tape alike: a value from there to the views, which
/// decide by it (answered or not) and show its ``text`` (`ok`,
/// `expiredToken`, `timeout (net fail)`, `answer lost (net drop
/// --in-flight)`); nothing reads that text back (issue 30).
///
/// The HTTP status is not here: below the fault layer an answer is a
/// ``WireResponse`` or a ``WireError`` (its code), never a status.
package enum RequestAnswer: Sendable, Hashable, Codable {
    /// The server answered it: `ok`.
    case ok
    /// The server refused it with the wire error `code`: `expiredToken`.
    /// A code this build does not know is kept as it came.
    case refused(code: WireError.Code)
    /// The transport failed it, as a real one does (``TransportError/Kind``:
    /// `reset`, `offline`, `timeout`…). `cause` is the fault that made it
    /// (`net fail`, or a cut's verb: `net offline --in-flight`), nil when
    /// it came from below the fault layer: `reset (net fail)`, `reset`.
    case failed(kind: TransportError.Kind, cause: String?)
    /// It was done, and a cut of the network (its verb, `cause`) lost its
    /// answer on the way back: `answer lost (net drop --in-flight)`.
    case answerLost(cause: String)
    /// It failed with an error that is neither the server's nor a
    /// transport's: `failed`.
    case unknownFailure

    /// The answer of a request the fault layer let through: what the
    /// transport below it returned or threw.
    package init(_ result: Result<WireResponse, any Error>) {
        switch result {
        case .success: self = .ok
        case .failure(let error as WireError): self = .refused(code: error.code)
        case .failure(let error as TransportError): self = .failed(kind: error.kind, cause: nil)
        case .failure: self = .unknownFailure
        }
    }

    /// Whether the server answered it (the only answer a sequence view
    /// draws as answered; every other one as refused).
    package var isOK: Bool { self == .ok }

    /// What the `net` trace shows after the request's name
    /// (`net: sendMessage → ok`): the one rendering.
    package var text: String {
        switch self {
        case .ok: "ok"
        case .refused(let code): code.rawValue
        case .failed(let kind, nil): kind.rawValue
        case .failed(let kind, let cause?): "\(kind.rawValue) (\(cause))"
        case .answerLost(let cause): "answer lost (\(cause))"
        case .unknownFailure: "failed"
        }
    }
}
