import ChatBackend
import ChatCore
import Hummingbird

extension ChatServer {
    /// The app's backend inspecting and driving its own data with the app's
    /// secret (SPEC S1): users, their conversations, sessions, devices and
    /// pushes, settings, credentials. Everything is scoped to the app of
    /// the API key (``AppScope``); what the workbench's `server` and `token`
    /// verbs ask in server mode.
    func addAppRoutes(to router: Router<BasicRequestContext>) {
        let backend = self.backend

        /// The app of a request whose app secret is right.
        @Sendable func app(_ request: Request) throws -> AppScope {
            backend.scope(apiKey: try Self.requireApp(backend, request))
        }

        router.get("/v1/app/users") { request, _ in
            JSONBody.response(try app(request).users())
        }
        router.get("/v1/app/users/{id}/conversations") { request, context in
            JSONBody.response(try app(request).conversations(userId: try Self.parameter(context, "id")))
        }
        router.get("/v1/app/users/{id}/sessions") { request, context in
            JSONBody.response(try app(request).sessions(userId: try Self.parameter(context, "id")))
        }
        router.get("/v1/app/users/{id}/devices") { request, context in
            JSONBody.response(try app(request).pushSubscriptions(userId: try Self.parameter(context, "id")))
        }
        router.get("/v1/app/users/{id}/pushes") { request, context in
            JSONBody.response(try app(request).pushes(userId: try Self.parameter(context, "id")))
        }
        router.post("/v1/app/users/{id}/tokens/expire") { request, context in
            try app(request).expireAccessTokens(userId: try Self.parameter(context, "id"))
            return JSONBody.noContent()
        }
        // The backend ends the user's subscriptions; each event stream then
        // closes with the reason (see the WebSocket side's `onClose`).
        router.post("/v1/app/users/{id}/tokens/revoke") { request, context in
            try app(request).revokeTokens(userId: try Self.parameter(context, "id"))
            return JSONBody.noContent()
        }
        router.get("/v1/app/conversations/{id}/messages") { request, context in
            JSONBody.response(try app(request).messages(conversationId: try Self.parameter(context, "id")))
        }
        router.get("/v1/app/settings") { request, _ in
            JSONBody.response(HTTPWire.AppSettingsBody(settings: try app(request).settings()))
        }
        router.post("/v1/app/settings") { request, _ in
            let scope = try app(request)
            let body = try await JSONBody.decode(HTTPWire.AppSettingsBody.self, from: request)!
            try scope.updateSettings(body.settings)
            return JSONBody.response(HTTPWire.AppSettingsBody(settings: scope.settings()))
        }
        router.post("/v1/app/access-tokens") { request, _ in
            let scope = try app(request)
            let body = try await JSONBody.decode(HTTPWire.IssueCredentialBody.self, from: request)!
            guard body.ttlMilliseconds == nil else {
                throw WireError(.badRequest, "ttlMilliseconds is for session tokens: an app-issued access token does not expire")
            }
            return JSONBody.response(try scope.issueAccessToken(userId: body.userId))
        }
        router.post("/v1/app/session-tokens") { request, _ in
            let scope = try app(request)
            let body = try await JSONBody.decode(HTTPWire.IssueCredentialBody.self, from: request)!
            return JSONBody.response(try scope.issueSessionToken(userId: body.userId, ttl: body.ttlMilliseconds.map { .milliseconds($0) }))
        }
    }
}
