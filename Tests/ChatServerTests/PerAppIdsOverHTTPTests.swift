import ChatBackend
import ChatCore
import ChatSDK
import ChatSDKNetwork
import ChatServer
import Foundation
import Testing

/// Ids are per app over HTTP (issue 26, item 3): a second app's "alice" is
/// not the demo app's, and the second app is answered the same for the
/// demo app's user and conversation ids as for ids nobody has.
@Suite struct PerAppIdsOverHTTPTests {
    static let otherKey = "other-key"
    static let otherSecret = "other-secret-0123456789abcdef"
    static let otherApp = [HTTPWire.Header.apiKey: otherKey, HTTPWire.Header.appSecret: otherSecret]

    static func bearer(_ token: String, apiKey: String) -> [String: String] {
        [HTTPWire.Header.apiKey: apiKey, "Authorization": "Bearer \(token)", HTTPWire.Header.deviceId: "device-1"]
    }

    static func send(_ text: String, create: Bool) -> String {
        let message = #""message": {"id": "m1", "content": {"text": {"_0": "\#(text)"}}}"#
        return create ? #"{"createConversation": {}, \#(message)}"# : "{\(message)}"
    }

    @Test func twoAppsWithOneUserIdAreTwoUsers() async throws {
        let server = try await TestServer.start()
        try server.server.backend.createApp(apiKey: Self.otherKey, jwtSecret: Self.otherSecret)
        let other = AppBackendClient(baseURL: server.baseURL, apiKey: Self.otherKey, secret: Self.otherSecret)
        let base = server.baseURL
        let demoAlice = try await server.app.issueTokenPair(userId: "alice")
        let otherAlice = try await other.issueTokenPair(userId: "alice")
        let demoSend = try await http(
            "POST", base + "/v1/conversations/c1/messages", headers: Self.bearer(demoAlice.accessToken, apiKey: ChatServer.demoApiKey),
            body: Self.send("demo secret", create: true))
        let otherSend = try await http(
            "POST", base + "/v1/conversations/c1/messages", headers: Self.bearer(otherAlice.accessToken, apiKey: Self.otherKey),
            body: Self.send("other secret", create: true))
        let demoMessages = try await server.app.messages(conversationId: "c1")
        let otherMessages = try await other.messages(conversationId: "c1")
        try await other.revokeTokens(userId: "alice")
        let demoAfter = try await http(
            "GET", base + "/v1/conversations", headers: Self.bearer(demoAlice.accessToken, apiKey: ChatServer.demoApiKey))
        let otherAfter = try await http(
            "GET", base + "/v1/conversations", headers: Self.bearer(otherAlice.accessToken, apiKey: Self.otherKey))
        await server.stop()
        #expect(demoSend.status == 200 && otherSend.status == 200, "\(otherSend.json ?? [:])")
        #expect((otherSend.json?["conversation"] as? [String: Any])?["id"] as? String == "c1")
        #expect(demoMessages.map(\.author) == [.user(id: "alice")] && otherMessages.map(\.author) == [.user(id: "alice")])
        #expect(demoMessages.map(\.content) == [.text("demo secret")] && otherMessages.map(\.content) == [.text("other secret")])
        #expect(demoAfter.status == 200 && otherAfter.status == 401, "the revoke ended the other app's alice only")
    }

    /// Each app's alice has an event stream; the other app's drop by user
    /// id and its revoke close its alice's stream only.
    @Test func aDropOrARevokeByUserIdClosesThatAppsStreamOnly() async throws {
        let server = try await TestServer.start()
        try server.server.backend.createApp(apiKey: Self.otherKey, jwtSecret: Self.otherSecret)
        let other = AppBackendClient(baseURL: server.baseURL, apiKey: Self.otherKey, secret: Self.otherSecret)
        let transport = HTTPTransport(baseURL: server.baseURL)
        var connections: [RealtimeConnection] = []
        for (apiKey, app) in [(ChatServer.demoApiKey, server.app), (Self.otherKey, other)] {
            let tokens = try await app.issueTokenPair(userId: "alice")
            connections.append(
                try await transport.openRealtime(
                    RealtimeRequest(apiKey: apiKey, accessToken: tokens.accessToken, deviceId: "device-1", afterUserSeq: nil)))
        }
        try await eventually("both streams to open") { server.server.realtimeConnectionCount == 2 }
        let dropped = try await other.dropConnections(userId: "alice")
        try await eventually("the other app's stream to close") { server.server.realtimeConnectionCount == 1 }
        let otherTokens = try await other.issueTokenPair(userId: "alice")
        connections.append(
            try await transport.openRealtime(
                RealtimeRequest(apiKey: Self.otherKey, accessToken: otherTokens.accessToken, deviceId: "device-1", afterUserSeq: nil)))
        try await eventually("its new stream to open") { server.server.realtimeConnectionCount == 2 }
        try await other.revokeTokens(userId: "alice")
        try await eventually("the revoke to close it") { server.server.realtimeConnectionCount == 1 }
        let demoSessions = try await server.app.sessions(userId: "alice")
        for connection in connections { connection.close() }
        await server.stop()
        #expect(dropped == 1)
        #expect(demoSessions.count == 1, "the demo app's alice still signed in")
    }

    /// The second app asks the same things about the demo app's "alice" and
    /// "c1" and about "nobody" and "c-free": the answers differ in the ids
    /// and in nothing else.
    @Test func anotherAppsIdsAnswerAsUnknownOnes() async throws {
        let server = try await TestServer.start()
        try server.server.backend.createApp(apiKey: Self.otherKey, jwtSecret: Self.otherSecret)
        let alice = try await server.app.issueTokenPair(userId: "alice")
        _ = try await http(
            "POST", server.baseURL + "/v1/conversations/c1/messages",
            headers: Self.bearer(alice.accessToken, apiKey: ChatServer.demoApiKey), body: Self.send("demo secret", create: true))
        let held = try await probe(server, user: "alice", conversation: "c1")
        let unknown = try await probe(server, user: "nobody", conversation: "c-free")
        await server.stop()
        #expect(held.count == unknown.count && held.count > 15)
        for (index, (a, b)) in zip(held, unknown).enumerated() {
            #expect(a == b, "answer \(index)")
        }
    }

    /// Status and body of each answer, with the ids, tokens and times replaced.
    private func probe(_ server: TestServer, user: String, conversation: String) async throws -> [String] {
        let base = server.baseURL
        var answers: [HTTPResult] = []
        for path in ["conversations", "sessions", "devices", "pushes"] {
            answers.append(try await http("GET", base + "/v1/app/users/\(user)/\(path)", headers: Self.otherApp))
        }
        answers.append(try await http("POST", base + "/v1/app/users/\(user)/tokens/expire", headers: Self.otherApp))
        answers.append(try await http("POST", base + "/v1/app/users/\(user)/tokens/revoke", headers: Self.otherApp))
        answers.append(try await http("GET", base + "/v1/app/conversations/\(conversation)/messages", headers: Self.otherApp))
        answers.append(
            try await http("POST", base + "/v1/agent/conversations/\(conversation)/say", headers: Self.otherApp, body: #"{"text": "hi"}"#))
        let signIn = [HTTPWire.Header.apiKey: Self.otherKey, HTTPWire.Header.deviceId: "device-1"]
        answers.append(
            try await http(
                "POST", base + "/v1/identity", headers: signIn,
                body: #"{"connectAccessToken": {"userId": "\#(user)", "accessToken": "ak-1"}}"#))
        answers.append(try await http("POST", base + "/v1/identity", headers: signIn, body: #"{"connectUserId": {"userId": "\#(user)"}}"#))
        answers.append(try await http("POST", base + "/v1/app/access-tokens", headers: Self.otherApp, body: #"{"userId": "\#(user)"}"#))
        let pair = try await http("POST", base + "/v1/app/tokens", headers: Self.otherApp, body: #"{"userId": "\#(user)"}"#)
        answers.append(pair)
        let token = Self.bearer(pair.json?["accessToken"] as? String ?? "", apiKey: Self.otherKey)
        let path = base + "/v1/conversations/\(conversation)"
        answers.append(try await http("GET", path, headers: token))
        answers.append(try await http("GET", path + "/messages", headers: token))
        answers.append(try await http("POST", path + "/typing", headers: token, body: #"{"isTyping": true}"#))
        answers.append(try await http("POST", path + "/messages", headers: token, body: Self.send("mine", create: false)))
        answers.append(try await http("POST", path + "/messages", headers: token, body: Self.send("mine", create: true)))
        answers.append(try await http("GET", path + "/messages", headers: token))
        answers.append(try await http("GET", base + "/v1/app/users/\(user)/conversations", headers: Self.otherApp))
        return answers.map { answer in
            var body = String(decoding: answer.body, as: UTF8.self)
            body = body.replacingOccurrences(of: user, with: "USER").replacingOccurrences(of: conversation, with: "CONVERSATION")
            body = body.replacing(#/\b(at|rt|ak|st|msg)-[A-Za-z0-9_]+/#) { "\($0.output.1)-X" }
            body = body.replacing(#/"milliseconds":-?[0-9]+/#) { _ in #""milliseconds":T"# }
            return "\(answer.status) \(body)"
        }
    }
}
