package import ChatCore
import Foundation

/// One thing that crossed the wire in server mode (SPEC W5): an HTTP
/// request or its answer, the opening of an event stream, a WebSocket frame
/// or its close. A session's entries, in order, are its traffic tape; a
/// replay with `--tape` feeds the SDK from them with the server stopped.
package struct TrafficEntry: Sendable, Hashable {
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
    /// Whose it is: a client's device, the network or the other side.
    package var origin: Origin
    package var channel: Channel
    package var direction: Direction
    /// What it is, as its producer knew it: what readers decide by.
    package var kind: Kind
    /// One line for people, the rendering of ``kind``:
    /// `POST /v1/conversations/c-1/messages`, `ok sent`, `open after=4`,
    /// `event #5 messageCreated`, `closed: …`.
    package var summary: String { kind.summary }
    /// The JSON of the request, answer or event (redacted when stored).
    package var body: Data?
    /// Ties the entries of one exchange together: a request and its answer,
    /// or an event stream's opening, its frames and its close share the
    /// number (``TapeRecordingTransport`` counts them from 1). Requests in
    /// flight at the same time are answered in any order: this, not the
    /// order of the tape, says which answer is whose.
    package var exchange: Int?

    package init(
        time: Instant, origin: Origin, channel: Channel, direction: Direction, kind: Kind, body: Data? = nil,
        exchange: Int? = nil
    ) {
        self.time = time
        self.origin = origin
        self.channel = channel
        self.direction = direction
        self.kind = kind
        self.body = body
        self.exchange = exchange
    }
}

/// As JSON (`sessions show --json`): its fields, and its summary for
/// people. `origin` says whose it is (`device`, `network`, `other-side`);
/// `deviceId` is the device's id on a device's entry, and the origin's
/// label (`network`, `app-backend`) on the others, as `traffic.device_id`.
extension TrafficEntry: Codable {
    private enum CodingKeys: String, CodingKey {
        case time, origin, deviceId, channel, direction, kind, summary, body, exchange
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let deviceId = try container.decode(String.self, forKey: .deviceId)
        let origin: Origin
        if let column = try container.decodeIfPresent(String.self, forKey: .origin) {
            guard let known = Origin(column: column, deviceId: deviceId) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .origin, in: container, debugDescription: "\(column) is no origin: expected device, network or other-side")
            }
            origin = known
        } else {
            // Written before entries had an origin: the legacy reader's.
            origin = Origin(legacyDeviceId: deviceId)
        }
        self.init(
            time: try container.decode(Instant.self, forKey: .time), origin: origin,
            channel: try container.decode(Channel.self, forKey: .channel),
            direction: try container.decode(Direction.self, forKey: .direction), kind: try container.decode(Kind.self, forKey: .kind),
            body: try container.decodeIfPresent(Data.self, forKey: .body),
            exchange: try container.decodeIfPresent(Int.self, forKey: .exchange))
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(time, forKey: .time)
        try container.encode(origin.column, forKey: .origin)
        try container.encode(origin.label, forKey: .deviceId)
        try container.encode(channel, forKey: .channel)
        try container.encode(direction, forKey: .direction)
        try container.encode(kind, forKey: .kind)
        try container.encode(summary, forKey: .summary)
        try container.encodeIfPresent(body, forKey: .body)
        try container.encodeIfPresent(exchange, forKey: .exchange)
    }
}
