package import ChatCore
import Foundation

/// One thing that crossed the wire in server mode (SPEC W5): an HTTP
/// request or its answer, the opening of an event stream, a WebSocket frame
/// or its close. A session's entries, in order, are its traffic tape; a
/// replay with `--tape` feeds the SDK from them with the server stopped.
package struct TrafficEntry: Sendable, Hashable, Codable {
    package enum Channel: String, Sendable, Hashable, Codable {
        /// A request and its answer.
        case http
        /// The event stream.
        case ws
    }

    package enum Direction: String, Sendable, Hashable, Codable {
        /// From the SDK to the server.
        case out
        /// From the server to the SDK.
        case `in`
    }

    /// When it crossed, on the session's clock.
    package var time: Instant
    /// The device of the client it belongs to (each workbench client has one).
    package var deviceId: String
    package var channel: Channel
    package var direction: Direction
    /// One line for people: `POST /v1/conversations/c-1/messages`, `200 sent`,
    /// `open after=4`, `event #5 messageCreated`, `closed: …`.
    package var summary: String
    /// The JSON of the request, answer or event (redacted when stored).
    package var body: Data?
    /// Ties the entries of one exchange together: a request and its answer,
    /// or an event stream's opening, its frames and its close share the
    /// number (``TapeRecordingTransport`` counts them from 1). Requests in
    /// flight at the same time are answered in any order: this, not the
    /// order of the tape, says which answer is whose.
    package var exchange: Int?

    package init(
        time: Instant, deviceId: String, channel: Channel, direction: Direction, summary: String, body: Data? = nil,
        exchange: Int? = nil
    ) {
        self.time = time
        self.deviceId = deviceId
        self.channel = channel
        self.direction = direction
        self.summary = summary
        self.body = body
        self.exchange = exchange
    }
}
