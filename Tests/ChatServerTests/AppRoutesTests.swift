import ChatBackend
import ChatCore
import ChatSDK
import ChatSDKNetwork
import ChatServer
import Foundation
import Testing

/// The app's inspection routes (`/v1/app/…`) over real sockets: the app's
/// secret is required, answers are scoped to the app, bad input is a 4xx
/// JSON error (SPEC S1, S3).
@Suite struct AppRoutesTests {
    static let secret = [HTTPWire.Header.apiKey: ChatServer.demoApiKey, HTTPWire.Header.appSecret: ChatServer.demoSecret]

    /// A user acting over the wire with tokens the app issued.
    struct User {
        let transport: HTTPTransport
        let apiKey: String
        let tokens: TokenPair
        var deviceId = "device-1"

        init(_ server: TestServer, _ app: AppBackendClient, _ id: String) async throws {
            transport = HTTPTransport(baseURL: server.baseURL)
            apiKey = app.apiKey
            tokens = try await app.issueTokenPair(userId: id)
        }

        @discardableResult
        func perform(_ request: WireRequest) async throws -> WireResponse {
            try await transport.perform(WireEnvelope(apiKey: apiKey, accessToken: tokens.accessToken, deviceId: deviceId, request: request))
        }

        func send(_ text: String, id: String, in conversationId: String) async throws {
            try await perform(
                .sendMessage(
                    conversationId: conversationId, createConversation: NewConversation(title: nil),
                    message: NewMessage(id: id, content: .text(text), replyTo: nil)))
        }
    }

    @Test func everyAppRouteRefusesAMissingOrWrongSecret() async throws {
        let server = try await TestServer.start()
        let appRoutes = ChatServer.routes.filter { $0.path.hasPrefix("/v1/app/") }
        #expect(appRoutes.count == 14)
        var answers: [(String, HTTPResult)] = []
        for route in appRoutes {
            let url = server.baseURL + route.path.replacingOccurrences(of: "{id}", with: "alice")
            let body = route.method == "POST" ? #"{"userId": "alice", "settings": []}"# : nil
            let label = "\(route.method) \(route.path)"
            answers.append(("\(label), no key", try await http(route.method, url, body: body)))
            answers.append(
                (
                    "\(label), no secret",
                    try await http(
                        route.method, url, headers: [HTTPWire.Header.apiKey: ChatServer.demoApiKey],
                        body: body)
                ))
            answers.append(
                (
                    "\(label), wrong secret",
                    try await http(
                        route.method, url,
                        headers: Self.secret.merging(
                            [HTTPWire.Header.appSecret: "guess"]) { $1 }, body: body)
                ))
            answers.append(
                (
                    "\(label), unknown app",
                    try await http(
                        route.method, url,
                        headers: Self.secret.merging(
                            [HTTPWire.Header.apiKey: "nope"]) { $1 }, body: body)
                ))
        }
        let users = server.server.backend.users()
        await server.stop()
        for (label, answer) in answers {
            #expect(answer.status == 401, "\(label): \(answer.status)")
            #expect(answer.isJSONError, "\(label)")
        }
        #expect(users.isEmpty, "a refused request must change nothing")
    }

    @Test func theAppSeesItsUsersTheirConversationsSessionsDevicesAndPushes() async throws {
        let server = try await TestServer.start()
        let app = server.app
        var alice = try await User(server, app, "alice")
        alice.deviceId = "phone"
        try await alice.perform(.registerDevice(pushToken: "push-token"))
        try await alice.send("hello", id: "m1", in: "c1")
        try await app.agentSay("Hi Alice", in: "c1")
        _ = try await User(server, app, "bob")

        let users = try await app.users()
        let conversations = try await app.conversations(userId: "alice")
        let sessions = try await app.sessions(userId: "alice")
        let devices = try await app.pushSubscriptions(userId: "alice")
        let pushes = try await app.pushes(userId: "alice")
        let messages = try await app.messages(conversationId: "c1")
        let nobody = try await (
            app.conversations(userId: "nobody"), app.sessions(userId: "nobody"),
            app.pushSubscriptions(userId: "nobody"), app.pushes(userId: "nobody")
        )
        await server.stop()
        #expect(
            users == [
                HTTPWire.AppUser(id: "alice", isAnonymous: false, conversationCount: 1, sessionCount: 1),
                HTTPWire.AppUser(id: "bob", isAnonymous: false, conversationCount: 0, sessionCount: 1),
            ])
        #expect(conversations.map(\.id) == ["c1"])
        #expect(sessions == [HTTPWire.AppSession(authenticationType: .tokens, deviceId: "phone")])
        #expect(devices == [HTTPWire.AppDevice(deviceId: "phone", pushToken: "push-token")])
        #expect(pushes == [HTTPWire.AppPush(deviceId: "phone", pushToken: "push-token", preview: "Hi Alice")])
        #expect(messages.map(\.content) == [.text("hello"), .text("Hi Alice")])
        #expect(messages.map(\.author) == [.user(id: "alice"), .provider(name: "agent")])
        #expect(nobody.0.isEmpty && nobody.1.isEmpty && nobody.2.isEmpty && nobody.3.isEmpty)
    }

    @Test func anUnknownConversationIs404() async throws {
        let server = try await TestServer.start()
        let unknown = try await http("GET", server.baseURL + "/v1/app/conversations/nope/messages", headers: Self.secret)
        let revokeNobody = try await http("POST", server.baseURL + "/v1/app/users/nobody/tokens/revoke", headers: Self.secret)
        let expireNobody = try await http("POST", server.baseURL + "/v1/app/users/nobody/tokens/expire", headers: Self.secret)
        await server.stop()
        #expect(unknown.status == 404 && unknown.code == "unknownConversation")
        #expect(revokeNobody.status == 404 && revokeNobody.code == "unknownUser")
        #expect(expireNobody.status == 404 && expireNobody.code == "unknownUser")
    }

    @Test func anotherAppsDataIsNotVisible() async throws {
        let server = try await TestServer.start()
        let otherSecret = "other-secret-0123456789abcdef"
        try server.server.backend.createApp(apiKey: "other-key", jwtSecret: otherSecret)
        let other = AppBackendClient(baseURL: server.baseURL, apiKey: "other-key", secret: otherSecret)
        let carol = try await User(server, other, "carol")
        try await carol.send("secret", id: "m1", in: "c-carol")
        let app = server.app

        let users = try await app.users()
        let conversations = try await app.conversations(userId: "carol")
        let sessions = try await app.sessions(userId: "carol")
        let base = server.baseURL
        let messages = try await http("GET", base + "/v1/app/conversations/c-carol/messages", headers: Self.secret)
        let revoke = try await http("POST", base + "/v1/app/users/carol/tokens/revoke", headers: Self.secret)
        let say = try await http("POST", base + "/v1/agent/conversations/c-carol/say", headers: Self.secret, body: #"{"text": "hi"}"#)
        let issue = try await http("POST", base + "/v1/app/access-tokens", headers: Self.secret, body: #"{"userId": "carol"}"#)
        let mixed = try await http(
            "GET", base + "/v1/app/users", headers: Self.secret.merging([HTTPWire.Header.apiKey: "other-key"]) { $1 })
        let carolsOwn = try await other.users()
        let carolSessions = server.server.backend.sessionCount(userId: "carol")
        await server.stop()
        #expect(users.isEmpty)
        #expect(conversations.isEmpty && sessions.isEmpty)
        #expect(messages.status == 404 && messages.code == "unknownConversation")
        #expect(revoke.status == 404 && revoke.code == "unknownUser")
        #expect(say.status == 404)
        // Ids are per app: the demo app's own "carol", not the other app's
        // (which it could not tell from an unknown id either).
        #expect(issue.status == 200)
        #expect(mixed.status == 401, "the demo secret is not the other app's")
        #expect(carolsOwn.map(\.id) == ["carol"])
        #expect(carolSessions == 1, "the refused revoke changed nothing")
    }
}
