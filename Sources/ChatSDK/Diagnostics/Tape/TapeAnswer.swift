package import ChatCore
import Foundation

/// How a request or an event stream's opening ended, as a tape keeps it
/// (the body of an answer entry): exactly one field is set.
///
/// ```json
/// {"response": {"sent": {...}}}
/// {"error": {"code": "expiredToken", "message": "The access token has expired"}}
/// {"lost": {"offline": true, "message": "The device is offline", "kind": "offline"}}
/// {"failure": "…"}        any other error, described
/// {"cancelled": true}     the SDK stopped waiting
/// ```
package struct TapeAnswer: Codable, Sendable, Hashable {
    /// A `TransportError`.
    package struct Lost: Codable, Sendable, Hashable {
        package var offline: Bool
        package var message: String
        /// Its kind (`refused`, `reset`, `timeout`…), so that a replay
        /// fails it as the SDK saw it: retryable or final (D7). Absent
        /// from tapes recorded before kinds: `offline` says it then.
        /// Coded as its raw value (`"kind": "refused"`).
        package var kind: TransportError.Kind?
    }

    package var response: WireResponse?
    package var error: WireError?
    package var lost: Lost?
    package var failure: String?
    package var cancelled: Bool?

    package init(_ response: WireResponse) {
        self.response = response
    }

    package init(error: any Error) {
        switch error {
        case let error as WireError: self.error = error
        case let error as TransportError:
            lost = Lost(offline: error.kind == .offline, message: error.message, kind: error.kind)
        case is CancellationError: cancelled = true
        default: failure = "\(error)"
        }
    }

    /// The recorded response, or the recorded error thrown again.
    package func result() throws -> WireResponse {
        if let response { return response }
        if let error { throw error }
        if let lost {
            let kind = lost.kind ?? (lost.offline ? .offline : .failed)
            throw TransportError(kind, lost.message)
        }
        if cancelled == true { throw CancellationError() }
        throw TransportError(.failed, failure ?? "the tape's answer is empty")
    }
}
