import ChatAPI
import ChatBackend
import ChatCore
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// docs/openapi.json's operations as the server answers them: the
/// generated `APIProtocol`, so that an operation, parameter or body that
/// disagrees with the document does not compile. Each method turns the
/// generated input into a backend call and the backend's answer into the
/// generated output (``JSONBridge``); failures are thrown as `WireError`s,
/// which ``ErrorMiddleware`` answers as `{code, message}` with the code's
/// status. Credentials (the document's security schemes, which the
/// generator does not make parameters) come from ``RequestHeaders``.
struct APIHandler: APIProtocol {
    let backend: Backend
    let hub: RealtimeHub

    /// Answers as compact JSON with sorted keys, as the server did before
    /// the generated code (the runtime's default pretty-prints).
    static let configuration = Configuration(jsonEncodingOptions: [.sortedKeys])

    /// `ok`, or 503 `unavailable` naming what is wrong with the database
    /// (issue 26: a damaged or full database answered ok while every
    /// request failed).
    func health(_ input: Operations.Health.Input) async throws -> Operations.Health.Output {
        let backend = self.backend
        guard let problem = await BackendThread.run({ backend.health() }) else {
            return .ok(.init(body: .json(.init(status: .ok))))
        }
        return .serviceUnavailable(.init(body: .json(.init(status: .unavailable, problem: problem))))
    }

    // MARK: SDK requests

    func identity(_ input: Operations.Identity.Input) async throws -> Operations.Identity.Output {
        guard case .json(let json) = input.body else { throw WireError(.badRequest, "The request needs a JSON body") }
        let wire: WireRequest = try Self.request(json)
        let answer = try await perform(wire)
        return .ok(.init(body: .json(try Self.answer(answer))))
    }

    func refresh(_ input: Operations.Refresh.Input) async throws -> Operations.Refresh.Output {
        guard case .json(let body) = input.body else { throw WireError(.badRequest, "The request needs a JSON body") }
        guard case .tokens(let pair) = try await perform(.refresh(refreshToken: body.refreshToken))
        else { throw WireError(.internalError) }
        return .ok(.init(body: .json(try Self.answer(pair))))
    }

    func listConversations(_ input: Operations.ListConversations.Input) async throws -> Operations.ListConversations.Output {
        let wire = WireRequest.listConversations(cursor: input.query.cursor, limit: try Self.limit(input.query.limit))
        guard case .conversations(let page) = try await perform(wire) else {
            throw WireError(.internalError)
        }
        return .ok(.init(body: .json(try Self.answer(page))))
    }

    func getConversation(_ input: Operations.GetConversation.Input) async throws -> Operations.GetConversation.Output {
        let wire = WireRequest.getConversation(id: try Self.id(input.path.id))
        guard case .conversation(let conversation) = try await perform(wire) else {
            throw WireError(.internalError)
        }
        return .ok(.init(body: .json(try Self.answer(conversation))))
    }

    func listMessages(_ input: Operations.ListMessages.Input) async throws -> Operations.ListMessages.Output {
        let wire = WireRequest.listMessages(
            conversationId: try Self.id(input.path.id), cursor: input.query.cursor, limit: try Self.limit(input.query.limit))
        guard case .messages(let page) = try await perform(wire) else {
            throw WireError(.internalError)
        }
        return .ok(.init(body: .json(try Self.answer(page))))
    }

    func messagesSince(_ input: Operations.MessagesSince.Input) async throws -> Operations.MessagesSince.Output {
        guard var seq = Optional(input.path.seq), seq >= 0 else {
            throw WireError(.badRequest, "The sequence number must be a non-negative integer, got \"\(input.path.seq)\"")
        }
        // The previous page's nextCursor takes the place of the seq.
        if let cursor = input.query.cursor { seq = try Backend.sinceSeq(fromCursor: cursor) }
        let wire = WireRequest.messagesSince(
            conversationId: try Self.id(input.path.id), afterSeq: seq, limit: try Self.limit(input.query.limit))
        guard case .messages(let page) = try await perform(wire) else {
            throw WireError(.internalError)
        }
        return .ok(.init(body: .json(try Self.answer(page))))
    }

    func sendMessage(_ input: Operations.SendMessage.Input) async throws -> Operations.SendMessage.Output {
        let id = try Self.id(input.path.id)
        guard case .json(let json) = input.body else { throw WireError(.badRequest, "The request needs a JSON body") }
        let body: HTTPWire.SendMessageBody = try Self.request(json)
        let wire = WireRequest.sendMessage(conversationId: id, createConversation: body.createConversation, message: body.message)
        guard case .sent(let conversation, let message) = try await perform(wire) else {
            throw WireError(.internalError)
        }
        return .ok(.init(body: .json(try Self.answer(HTTPWire.SentBody(conversation: conversation, message: message)))))
    }

    func setTyping(_ input: Operations.SetTyping.Input) async throws -> Operations.SetTyping.Output {
        let id = try Self.id(input.path.id)
        guard case .json(let body) = input.body else { throw WireError(.badRequest, "The request needs a JSON body") }
        _ = try await perform(.setTyping(conversationId: id, isTyping: body.isTyping))
        return .noContent(.init())
    }

    /// Reached only when the request is not a WebSocket upgrade, or its
    /// credentials were refused before the upgrade: says which.
    func events(_ input: Operations.Events.Input) async throws -> Operations.Events.Output {
        let credentials = try ChatServer.realtimeCredentials(
            RequestHeaders.current, apiKey: input.query.apiKey, accessToken: input.query.accessToken)
        if let after = input.query.after, after < 0 {
            throw WireError(.badRequest, "after must be a non-negative integer, got \"\(after)\"")
        }
        switch backend.subscribe(
            apiKey: credentials.apiKey, accessToken: credentials.accessToken ?? "", afterUserSeq: nil, sink: { _ in })
        {
        case .failure(let error):
            throw error
        case .success(let id):
            backend.unsubscribe(id)
            throw WireError(.upgradeRequired, "GET /v1/events is a WebSocket: send an upgrade request")
        }
    }

    // MARK: The app's backend

    func issueTokens(_ input: Operations.IssueTokens.Input) async throws -> Operations.IssueTokens.Output {
        let apiKey = try requireApp()
        guard case .json(let body) = input.body else { throw WireError(.badRequest, "The request needs a JSON body") }
        let userId = body.userId
        let backend = self.backend
        let pair = try await BackendThread.run { try backend.issueTokens(apiKey: apiKey, userId: userId) }
        return .ok(.init(body: .json(try Self.answer(pair))))
    }

    func dropConnections(_ input: Operations.DropConnections.Input) async throws -> Operations.DropConnections.Output {
        let apiKey = try requireApp()
        let dropped = hub.dropAll(apiKey: apiKey, userId: input.query.userId, reason: "dropped by the server")
        return .ok(.init(body: .json(.init(dropped: dropped))))
    }

    // MARK: Helpers

    /// Answers one SDK request through the backend, on the backend's thread,
    /// with the request's credentials and device. The `X-Device-Id` header
    /// is read as it came: the generated input's `xDeviceId` is
    /// percent-decoded, which the server never did.
    func perform(_ wire: WireRequest) async throws -> WireResponse {
        let headers = RequestHeaders.current
        guard let apiKey = ChatServer.header(headers, HTTPWire.Header.apiKey), !apiKey.isEmpty else {
            throw WireError(.invalidApiKey, "The request has no \(HTTPWire.Header.apiKey) header")
        }
        let envelope = WireEnvelope(
            apiKey: apiKey, accessToken: try ChatServer.bearerToken(headers),
            deviceId: try ChatServer.deviceId(ChatServer.header(headers, HTTPWire.Header.deviceId)),
            request: wire)
        let backend = self.backend
        return try await BackendThread.run { backend.handle(envelope) }.get()
    }

    /// Checks the API key and the app secret of the request; returns the API key.
    func requireApp() throws -> String {
        try ChatServer.requireApp(backend, RequestHeaders.current)
    }

    /// The app of a request whose app secret is right.
    func app() throws -> AppScope {
        backend.scope(apiKey: try requireApp())
    }

    /// A path's id, with the limits of every id, in its one spelling
    /// (``Identifier``: NFC).
    static func id(_ value: String) throws -> String {
        try Backend.validateIdentifier(value, what: "id in the path")
        return Identifier.normalized(value)
    }

    static func limit(_ value: Int64?) throws -> Int {
        guard let value else { return HTTPWire.defaultLimit }
        guard value >= 1, let limit = Int(exactly: value) else {
            throw WireError(.badRequest, "limit must be a positive integer, got \"\(value)\"")
        }
        return limit
    }

    /// A request body the generated decoder accepted, as ChatCore's type:
    /// what does not fit it is a bad request.
    static func request<Target: Decodable>(_ value: some Encodable) throws -> Target {
        do {
            return try JSONBridge.convert(value)
        } catch let error as DecodingError {
            throw WireError(.badRequest, JSONBody.describe(error))
        }
    }

    /// The backend's answer as the document's type; one that does not fit
    /// it is the server's fault.
    static func answer<Target: Decodable>(_ value: some Encodable) throws -> Target {
        do {
            return try JSONBridge.convert(value)
        } catch {
            throw WireError(.internalError, "The answer does not match docs/openapi.json: \(error)")
        }
    }
}
