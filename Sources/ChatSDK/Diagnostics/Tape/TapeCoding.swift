package import ChatCore
import Foundation

/// How tape bodies are written and read: JSON with sorted keys, so that the
/// same value always makes the same bytes.
package enum TapeCoding {
    /// `JSONEncoder`'s options for the tape.
    package static let formatting: JSONEncoder.OutputFormatting = [.sortedKeys, .withoutEscapingSlashes]

    package static func encode(_ value: some Encodable) -> Data? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = formatting
        return try? encoder.encode(value)
    }

    // The bodies the SDK's traffic carries, written by ``TapeJSON``: the
    // same bytes as above, without its generic path (issue 31).

    package static func encode(_ envelope: WireEnvelope) -> Data? { written { $0.write(envelope) } }
    package static func encode(_ answer: TapeAnswer) -> Data? { written { $0.write(answer) } }
    package static func encode(_ event: WireEvent) -> Data? { written { $0.write(event) } }
    package static func encode(_ opening: TapeOpening) -> Data? { written { $0.write(opening) } }
    package static func encode(_ close: TapeClose) -> Data? { written { $0.write(close) } }

    private static func written(_ write: (inout TapeJSON) -> Void) -> Data {
        var json = TapeJSON()
        write(&json)
        return json.data
    }

    package static func decode<T: Decodable>(_ type: T.Type, from body: Data?) -> T? {
        guard let body else { return nil }
        return try? JSONDecoder().decode(type, from: body)
    }

    /// `body` as text, for people (divergences).
    package static func text(_ body: Data?) -> String {
        body.map { String(decoding: $0, as: UTF8.self) } ?? "(no body)"
    }

    /// What replaces a secret when requests are compared: the tape holds
    /// placeholders (`<token#1>`) where the SDK sends tokens now.
    package static let mask = "<masked>"

    /// `envelope` without its secrets (API key, access token, and the
    /// tokens, JWTs and user signatures requests carry), for comparing a
    /// request with the tape.
    package static func masked(_ envelope: WireEnvelope) -> WireEnvelope {
        var envelope = envelope
        envelope.apiKey = mask
        envelope.accessToken = envelope.accessToken.map { _ in mask }
        // Not on the tape: header fields are not part of the request's JSON.
        envelope.headers = [:]
        switch envelope.request {
        case .refresh: envelope.request = .refresh(refreshToken: mask)
        case .loginJWT: envelope.request = .loginJWT(jwt: mask)
        case .connectUserId(let userId, _?): envelope.request = .connectUserId(userId: userId, signature: mask)
        case .connectAccessToken(let userId, _, let signature):
            envelope.request = .connectAccessToken(userId: userId, accessToken: mask, signature: signature.map { _ in mask })
        case .connectSessionToken(let userId, _, let signature):
            envelope.request = .connectSessionToken(userId: userId, sessionToken: mask, signature: signature.map { _ in mask })
        default: break
        }
        return envelope
    }
}

/// The body of an event stream's opening (`RealtimeRequest` as JSON).
package struct TapeOpening: Codable, Sendable, Hashable {
    package var apiKey: String
    package var accessToken: String
    package var deviceId: String
    package var afterUserSeq: Int64?

    package init(_ request: RealtimeRequest) {
        apiKey = request.apiKey
        accessToken = request.accessToken
        deviceId = request.deviceId
        afterUserSeq = request.afterUserSeq
    }

    /// Without its secrets, for comparing.
    package var masked: TapeOpening {
        var opening = self
        opening.apiKey = TapeCoding.mask
        opening.accessToken = TapeCoding.mask
        return opening
    }
}

/// The body of a close frame.
package struct TapeClose: Codable, Sendable, Hashable {
    package var reason: String

    package init(reason: String) { self.reason = reason }
}

extension WireResponse {
    /// The case's name: `tokens`, `sent`, `session`…
    package var tapeName: String {
        switch self {
        case .tokens: "tokens"
        case .conversations: "conversations"
        case .conversation: "conversation"
        case .messages: "messages"
        case .sent: "sent"
        case .ok: "ok"
        case .session: "session"
        case .user: "user"
        case .attachment: "attachment"
        case .attachmentData: "attachmentData"
        case .limits: "limits"
        }
    }
}

extension WireEvent {
    /// The kind's name: `messageCreated`, `conversationUpdated`, `typing`.
    package var tapeName: String {
        switch kind {
        case .messageCreated: "messageCreated"
        case .conversationUpdated: "conversationUpdated"
        case .typing: "typing"
        }
    }
}
