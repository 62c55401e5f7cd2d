import ChatAPI
import ChatBackend
import ChatCore

/// The app's backend inspecting and driving its own data with the app's
/// secret (SPEC S1), and the other side's agent (S2): everything is scoped
/// to the app of the API key (``AppScope``).
extension APIHandler {
    func appUsers(_ input: Operations.AppUsers.Input) async throws -> Operations.AppUsers.Output {
        .ok(.init(body: .json(try Self.answer(try app().users()))))
    }

    func appUserConversations(_ input: Operations.AppUserConversations.Input) async throws -> Operations.AppUserConversations.Output {
        let app = try app()
        return .ok(.init(body: .json(try Self.answer(app.conversations(userId: try Self.id(input.path.id))))))
    }

    func appUserSessions(_ input: Operations.AppUserSessions.Input) async throws -> Operations.AppUserSessions.Output {
        let app = try app()
        return .ok(.init(body: .json(try Self.answer(app.sessions(userId: try Self.id(input.path.id))))))
    }

    func appUserDevices(_ input: Operations.AppUserDevices.Input) async throws -> Operations.AppUserDevices.Output {
        let app = try app()
        return .ok(.init(body: .json(try Self.answer(app.pushSubscriptions(userId: try Self.id(input.path.id))))))
    }

    func appUserPushes(_ input: Operations.AppUserPushes.Input) async throws -> Operations.AppUserPushes.Output {
        let app = try app()
        return .ok(.init(body: .json(try Self.answer(app.pushes(userId: try Self.id(input.path.id))))))
    }

    func expireAccessTokens(_ input: Operations.ExpireAccessTokens.Input) async throws -> Operations.ExpireAccessTokens.Output {
        try app().expireAccessTokens(userId: try Self.id(input.path.id))
        return .noContent(.init())
    }

    /// The backend ends the user's subscriptions; each event stream then
    /// closes with the reason (see the WebSocket side's `onClose`).
    func revokeTokens(_ input: Operations.RevokeTokens.Input) async throws -> Operations.RevokeTokens.Output {
        try app().revokeTokens(userId: try Self.id(input.path.id))
        return .noContent(.init())
    }

    func appConversationMessages(_ input: Operations.AppConversationMessages.Input) async throws
        -> Operations.AppConversationMessages.Output
    {
        let app = try app()
        return .ok(.init(body: .json(try Self.answer(try app.messages(conversationId: try Self.id(input.path.id))))))
    }

    func appSettings(_ input: Operations.AppSettings.Input) async throws -> Operations.AppSettings.Output {
        .ok(.init(body: .json(try Self.answer(HTTPWire.AppSettingsBody(settings: try app().settings())))))
    }

    func updateAppSettings(_ input: Operations.UpdateAppSettings.Input) async throws -> Operations.UpdateAppSettings.Output {
        let scope = try app()
        guard case .json(let json) = input.body else { throw WireError(.badRequest, "The request needs a JSON body") }
        let body: HTTPWire.AppSettingsBody = try Self.request(json)
        try scope.updateSettings(body.settings)
        return .ok(.init(body: .json(try Self.answer(HTTPWire.AppSettingsBody(settings: scope.settings())))))
    }

    func issueAccessToken(_ input: Operations.IssueAccessToken.Input) async throws -> Operations.IssueAccessToken.Output {
        let scope = try app()
        // The document's body has no ttlMilliseconds: an access token does not expire.
        guard case .json(let body) = input.body else { throw WireError(.badRequest, "The request needs a JSON body") }
        return .ok(.init(body: .json(try Self.answer(try scope.issueAccessToken(userId: body.userId)))))
    }

    func issueSessionToken(_ input: Operations.IssueSessionToken.Input) async throws -> Operations.IssueSessionToken.Output {
        let scope = try app()
        guard case .json(let body) = input.body else { throw WireError(.badRequest, "The request needs a JSON body") }
        let credential = try scope.issueSessionToken(userId: body.userId, ttl: body.ttlMilliseconds.map { Duration.milliseconds($0) })
        return .ok(.init(body: .json(try Self.answer(credential))))
    }

    // MARK: The other side (S2)

    func agentSay(_ input: Operations.AgentSay.Input) async throws -> Operations.AgentSay.Output {
        guard case .json(let body) = input.body else { throw WireError(.badRequest, "The request needs a JSON body") }
        let message = try await asAgent(in: input.path.id, named: body.agentName) { backend, id, agentName in
            try backend.agentSay(conversationId: id, text: body.text, agentName: agentName)
        }
        return .ok(.init(body: .json(try Self.answer(message))))
    }

    func agentTyping(_ input: Operations.AgentTyping.Input) async throws -> Operations.AgentTyping.Output {
        guard case .json(let body) = input.body else { throw WireError(.badRequest, "The request needs a JSON body") }
        try await asAgent(in: input.path.id, named: body.agentName) { backend, id, agentName in
            try backend.agentTyping(conversationId: id, isTyping: body.isTyping, agentName: agentName)
        }
        return .noContent(.init())
    }

    func agentRead(_ input: Operations.AgentRead.Input) async throws -> Operations.AgentRead.Output {
        var agentName: String?
        if case .json(let body) = input.body { agentName = body.agentName }
        try await asAgent(in: input.path.id, named: agentName) { backend, id, agentName in
            try backend.agentRead(conversationId: id, agentName: agentName)
        }
        return .noContent(.init())
    }

    /// Runs `action` on the backend's thread as agent `name` ("agent" by
    /// default) in conversation `id`, which must belong to the app whose
    /// secret is given.
    func asAgent<T: Sendable>(
        in id: String, named name: String?, _ action: @escaping @Sendable (Backend, String, String) throws -> T
    ) async throws -> T {
        let conversationId = try agentConversation(id)
        let agentName = try ChatServer.agentName(name)
        let backend = self.backend
        return try await BackendThread.run { try action(backend, conversationId, agentName) }
    }

    /// The conversation of an agent route, which must belong to the app whose secret is given.
    func agentConversation(_ id: String) throws -> String {
        let app = try app()
        let id = try Self.id(id)
        try app.requireConversation(id)
        return id
    }
}
