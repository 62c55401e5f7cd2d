import ChatBackend
import ChatCore
import ChatSDK
import Foundation
import Synchronization

/// The other side's calls on the traffic tape: what the workbench asked the
/// server as the app's backend and the agent (`agent say`, `server …`,
/// `token …`, the token provider's tokens), so that a replay from the tape
/// needs no server at all. They are the entries of the other side
/// (``TrafficEntry/Origin/otherSide``, labelled `app-backend`): a request
/// (`agentSay(c-1, "Hello")`) and its answer (`ok` with the JSON result, or
/// `error CODE` with the error).
enum AppBackendTape {
    /// How a failed call is kept: `{"code","isTransport","message"}`, the
    /// code being the server's (`isTransport` false) or the transport
    /// failure's kind (`offline`, `refused`, `timeout`…).
    struct Failure: Codable, Hashable {
        enum Cause: Hashable {
            /// The server said no.
            case rejected(WireError.Code)
            /// Lost on the way, or failed otherwise (kind `failed`).
            case lost(TransportError.Kind)
        }

        var cause: Cause
        var message: String

        init(_ cause: Cause, message: String) {
            self.cause = cause
            self.message = message
        }

        /// How the call ended, as the tape types it (`error offline`,
        /// `error failed`: lost on the way; `error CODE`: the server said no).
        var outcome: TrafficEntry.Outcome {
            switch cause {
            case .rejected(let code): .rejected(code: code.rawValue)
            case .lost(.offline): .offline
            case .lost: .failed
            }
        }

        enum CodingKeys: String, CodingKey { case code, isTransport, message }

        // LEGACY: rows written before issue 30 kept every transport kind but
        // `offline` as `failed`; they read as the kind `failed`, as they did.
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let code = try container.decode(String.self, forKey: .code)
            let isTransport = try container.decode(Bool.self, forKey: .isTransport)
            cause = isTransport ? .lost(TransportError.Kind(rawValue: code)) : .rejected(WireError.Code(rawValue: code))
            message = try container.decode(String.self, forKey: .message)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch cause {
            case .rejected(let code):
                try container.encode(code.rawValue, forKey: .code)
                try container.encode(false, forKey: .isTransport)
            case .lost(let kind):
                try container.encode(kind.rawValue, forKey: .code)
                try container.encode(true, forKey: .isTransport)
            }
            try container.encode(message, forKey: .message)
        }
    }

    /// The answer of a call with nothing to return.
    struct Done: Codable {}

    static func failure(_ error: any Error) -> Failure {
        switch error {
        case let error as WireError: Failure(.rejected(error.code), message: error.message)
        case let error as TransportError: Failure(.lost(error.kind), message: error.message)
        default: Failure(.lost(.failed), message: "\(error)")
        }
    }

    static func error(_ failure: Failure) -> any Error {
        switch failure.cause {
        case .rejected(let code): WireError(code, failure.message)
        case .lost(let kind): TransportError(kind, failure.message)
        }
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()
}

/// Records every call of the server side it wraps onto the tape.
final class RecordingServerSide: ServerSide {
    let inner: any ServerSide
    /// The clock the entries are stamped with.
    let clock: TimeSource
    let sink: @Sendable (TrafficEntry) -> Void
    var label: String { inner.label }

    init(_ inner: any ServerSide, clock: TimeSource, sink: @escaping @Sendable (TrafficEntry) -> Void) {
        self.inner = inner
        self.clock = clock
        self.sink = sink
    }

    func record<T: Codable>(_ call: TrafficEntry.Call, _ body: () throws -> T) throws -> T {
        sink(entry(.out, .call(call)))
        return try answered(Result { try body() })
    }

    func recordAsync<T: Codable>(_ call: TrafficEntry.Call, _ body: () async throws -> T) async throws -> T {
        sink(entry(.out, .call(call)))
        let result: Result<T, any Error>
        do { result = .success(try await body()) } catch { result = .failure(error) }
        return try answered(result)
    }

    /// Records the answer of the call just recorded, and gives it back.
    private func answered<T: Codable>(_ result: Result<T, any Error>) throws -> T {
        switch result {
        case .success(let value):
            sink(entry(.in, .answer(.ok(response: nil)), try? AppBackendTape.encoder.encode(value)))
            return value
        case .failure(let error):
            let failure = AppBackendTape.failure(error)
            sink(entry(.in, .answer(failure.outcome), try? AppBackendTape.encoder.encode(failure)))
            throw error
        }
    }

    private func entry(_ direction: TrafficEntry.Direction, _ kind: TrafficEntry.Kind, _ body: Data? = nil) -> TrafficEntry {
        TrafficEntry(time: clock.now, origin: .otherSide, channel: .http, direction: direction, kind: kind, body: body)
    }

    private func done(_ call: TrafficEntry.Call, _ body: () throws -> Void) throws {
        _ = try record(call) { () throws -> AppBackendTape.Done in
            try body()
            return AppBackendTape.Done()
        }
    }

    func users() throws -> [HTTPWire.AppUser] { try record(.users()) { try inner.users() } }
    func attachments() throws -> [HTTPWire.AppAttachment] { try record(.attachments()) { try inner.attachments() } }
    func conversations(userId: String) throws -> [WireConversation] {
        try record(.conversations(userId: userId)) { try inner.conversations(userId: userId) }
    }
    func messages(conversationId: String) throws -> [WireMessage] {
        try record(.messages(conversationId: conversationId)) { try inner.messages(conversationId: conversationId) }
    }
    func sessions(userId: String) throws -> [HTTPWire.AppSession] {
        try record(.sessions(userId: userId)) { try inner.sessions(userId: userId) }
    }
    func pushSubscriptions(userId: String) throws -> [HTTPWire.AppDevice] {
        try record(.pushSubscriptions(userId: userId)) { try inner.pushSubscriptions(userId: userId) }
    }
    func pushes(userId: String) throws -> [HTTPWire.AppPush] { try record(.pushes(userId: userId)) { try inner.pushes(userId: userId) } }
    func settings() throws -> [HTTPWire.AppSetting] { try record(.settings()) { try inner.settings() } }
    func updateSettings(_ changes: [HTTPWire.AppSetting]) throws {
        try done(.updateSettings(changes)) { try inner.updateSettings(changes) }
    }
    func expireAccessTokens(userId: String) throws {
        try done(.expireAccessTokens(userId: userId)) { try inner.expireAccessTokens(userId: userId) }
    }
    func revokeTokens(userId: String) throws { try done(.revokeTokens(userId: userId)) { try inner.revokeTokens(userId: userId) } }
    func issueAccessToken(userId: String) throws -> HTTPWire.IssuedCredentialBody {
        try record(.issueAccessToken(userId: userId)) { try inner.issueAccessToken(userId: userId) }
    }
    func issueSessionToken(userId: String, ttl: Duration?) throws -> HTTPWire.IssuedCredentialBody {
        try record(.issueSessionToken(userId: userId, ttl: ttl)) { try inner.issueSessionToken(userId: userId, ttl: ttl) }
    }
    func agentSay(conversationId: String, text: String) throws -> WireMessage {
        try record(.agentSay(conversationId: conversationId, text: text)) { try inner.agentSay(conversationId: conversationId, text: text) }
    }
    func agentSendAttachment(
        conversationId: String, kind: WireContent.AttachmentKind, mimeType: String, fileName: String?, data: Data
    ) throws -> WireMessage {
        try record(.agentSendAttachment(conversationId: conversationId, kind: kind, mimeType: mimeType, fileName: fileName, data: data)) {
            try inner.agentSendAttachment(conversationId: conversationId, kind: kind, mimeType: mimeType, fileName: fileName, data: data)
        }
    }
    func agentTyping(conversationId: String, isTyping: Bool) throws {
        try done(.agentTyping(conversationId: conversationId, isTyping: isTyping)) {
            try inner.agentTyping(conversationId: conversationId, isTyping: isTyping)
        }
    }
    func agentRead(conversationId: String) throws {
        try done(.agentRead(conversationId: conversationId)) { try inner.agentRead(conversationId: conversationId) }
    }
}

/// Answers the other side's calls from the tape, in order (the server is
/// stopped); a call that is not the tape's next one is a divergence.
final class TapeServerSide: ServerSide {
    let label: String
    private let state: Mutex<(entries: [TrafficEntry], next: Int, divergences: [TapeDivergence])>
    private let currentStep = Mutex<Int?>(nil)

    init(label: String, entries: [TrafficEntry]) {
        self.label = label
        state = Mutex((entries.filter { $0.origin == .otherSide }, 0, []))
    }

    func beginStep(_ number: Int) { currentStep.withLock { $0 = number } }

    var divergences: [TapeDivergence] { state.withLock { $0.divergences } }
    /// Calls the tape has that the replay never made.
    var unusedCalls: [String] {
        state.withLock { s in s.entries[s.next...].filter { $0.direction == .out }.map(\.summary) }
    }

    func answer<T: Decodable>(_ call: TrafficEntry.Call, as type: T.Type = T.self) throws -> T {
        let step = currentStep.withLock { $0 }
        let found: (request: TrafficEntry, answer: TrafficEntry)? = state.withLock { s in
            guard let start = s.entries[s.next...].firstIndex(where: { $0.direction == .out }) else {
                s.divergences.append(
                    TapeDivergence(step: step, deviceId: TrafficEntry.Origin.otherSide.label, sent: call.rendering, tape: nil))
                return nil
            }
            guard let end = s.entries[(start + 1)...].firstIndex(where: { $0.direction == .in }) else { return nil }
            s.next = end + 1
            if s.entries[start].kind != .call(call) {
                s.divergences.append(
                    TapeDivergence(
                        step: step, deviceId: TrafficEntry.Origin.otherSide.label, sent: call.rendering, tape: s.entries[start].summary))
            }
            return (s.entries[start], s.entries[end])
        }
        guard let found else { throw TransportError(.failed, "\(call.rendering) is not on the tape") }
        let body = found.answer.body ?? Data()
        if found.answer.kind != .answer(.ok(response: nil)) {
            let failure = try JSONDecoder().decode(AppBackendTape.Failure.self, from: body)
            throw AppBackendTape.error(failure)
        }
        return try JSONDecoder().decode(T.self, from: body)
    }

    func users() throws -> [HTTPWire.AppUser] { try answer(.users()) }
    func attachments() throws -> [HTTPWire.AppAttachment] { try answer(.attachments()) }
    func conversations(userId: String) throws -> [WireConversation] { try answer(.conversations(userId: userId)) }
    func messages(conversationId: String) throws -> [WireMessage] { try answer(.messages(conversationId: conversationId)) }
    func sessions(userId: String) throws -> [HTTPWire.AppSession] { try answer(.sessions(userId: userId)) }
    func pushSubscriptions(userId: String) throws -> [HTTPWire.AppDevice] { try answer(.pushSubscriptions(userId: userId)) }
    func pushes(userId: String) throws -> [HTTPWire.AppPush] { try answer(.pushes(userId: userId)) }
    func settings() throws -> [HTTPWire.AppSetting] { try answer(.settings()) }
    func updateSettings(_ changes: [HTTPWire.AppSetting]) throws { _ = try answer(.updateSettings(changes), as: AppBackendTape.Done.self) }
    func expireAccessTokens(userId: String) throws { _ = try answer(.expireAccessTokens(userId: userId), as: AppBackendTape.Done.self) }
    func revokeTokens(userId: String) throws { _ = try answer(.revokeTokens(userId: userId), as: AppBackendTape.Done.self) }
    func issueAccessToken(userId: String) throws -> HTTPWire.IssuedCredentialBody { try answer(.issueAccessToken(userId: userId)) }
    func issueSessionToken(userId: String, ttl: Duration?) throws -> HTTPWire.IssuedCredentialBody {
        try answer(.issueSessionToken(userId: userId, ttl: ttl))
    }
    func agentSay(conversationId: String, text: String) throws -> WireMessage {
        try answer(.agentSay(conversationId: conversationId, text: text))
    }
    func agentSendAttachment(
        conversationId: String, kind: WireContent.AttachmentKind, mimeType: String, fileName: String?, data: Data
    ) throws -> WireMessage {
        try answer(.agentSendAttachment(conversationId: conversationId, kind: kind, mimeType: mimeType, fileName: fileName, data: data))
    }
    func agentTyping(conversationId: String, isTyping: Bool) throws {
        _ = try answer(.agentTyping(conversationId: conversationId, isTyping: isTyping), as: AppBackendTape.Done.self)
    }
    func agentRead(conversationId: String) throws {
        _ = try answer(.agentRead(conversationId: conversationId), as: AppBackendTape.Done.self)
    }
}
