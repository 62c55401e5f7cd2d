import ChatBackend
import ChatCore
import ChatSDK
import ChatSDKNetwork
import ChatServer
import Foundation
import Testing

/// The app's settings and credential routes over real sockets: settings
/// change all or none, credentials are issued, expired and revoked, and a
/// revoke closes the user's event streams with the reason.
@Suite struct AppSettingsAndTokensTests {
    static let secret = AppRoutesTests.secret

    @Test func settingsAreReadAndChangedAllOrNone() async throws {
        let server = try await TestServer.start()
        let app = server.app
        let before = try await app.settings()
        let changed = try await app.updateSettings([.init(key: "typingTTL", value: "10s"), .init(key: "allowUserIdOnly", value: "false")])
        var refusals: [String: WireError] = [:]
        for (label, changes) in [
            ("key", [HTTPWire.AppSetting(key: "colour", value: "blue")]),
            ("value", [.init(key: "sessionTokenTTL", value: "soon")]),
            ("one of two", [.init(key: "typingTTL", value: "1s"), .init(key: "requireAccessToken", value: "maybe")]),
        ] {
            do {
                try await app.updateSettings(changes)
            } catch let error as WireError {
                refusals[label] = error
            }
        }
        let after = try await app.settings()
        let base = server.baseURL
        let malformed = try await http("POST", base + "/v1/app/settings", headers: Self.secret, body: #"{"settings": {"typingTTL": "1s"}}"#)
        let badValue = try await http(
            "POST", base + "/v1/app/settings", headers: Self.secret,
            body: #"{"settings": [{"key": "maxAttachmentBytes", "value": "lots"}]}"#)
        await server.stop()
        #expect(before.map(\.key) == AppSettings.keys)
        #expect(before.first { $0.key == "typingTTL" }?.value == "6s")
        #expect(changed.first { $0.key == "typingTTL" }?.value == "10s")
        #expect(changed.first { $0.key == "allowUserIdOnly" }?.value == "false")
        #expect(refusals["key"]?.code == .badRequest && refusals["key"]?.message.contains("colour") == true)
        #expect(refusals["value"]?.code == .badRequest && refusals["value"]?.message.contains("sessionTokenTTL") == true)
        #expect(refusals["one of two"]?.message.contains("requireAccessToken") == true)
        #expect(after == changed, "a refused change applies nothing")
        #expect(malformed.status == 400 && malformed.code == "badRequest")
        #expect(badValue.status == 400 && badValue.code == "badRequest")
    }

    @Test func credentialsAreIssued() async throws {
        let server = try await TestServer.start()
        let app = server.app
        let access = try await app.issueAccessToken(userId: "alice")
        let start = Date().timeIntervalSince1970 * 1000
        let session = try await app.issueSessionToken(userId: "alice", ttlMilliseconds: 60_000)
        let defaultSession = try await app.issueSessionToken(userId: "bob")
        let base = server.baseURL
        let zeroTTL = try await http(
            "POST", base + "/v1/app/session-tokens", headers: Self.secret, body: #"{"userId": "alice", "ttlMilliseconds": 0}"#)
        let accessTTL = try await http(
            "POST", base + "/v1/app/access-tokens", headers: Self.secret, body: #"{"userId": "alice", "ttlMilliseconds": 5}"#)
        let emptyUser = try await http("POST", base + "/v1/app/access-tokens", headers: Self.secret, body: #"{"userId": ""}"#)
        let noBody = try await http("POST", base + "/v1/app/session-tokens", headers: Self.secret)
        let users = try await app.users()
        await server.stop()
        #expect(access.expiresAt == nil && !access.token.isEmpty)
        let expiresAt = try #require(session.expiresAt)
        #expect(abs(Double(expiresAt.milliseconds) - (start + 60_000)) < 10_000)
        let defaultExpiry = try #require(defaultSession.expiresAt)
        #expect(abs(Double(defaultExpiry.milliseconds) - (start + 3_600_000)) < 10_000)
        for answer in [zeroTTL, accessTTL, emptyUser, noBody] {
            #expect(answer.status == 400 && answer.code == "badRequest", "\(String(decoding: answer.body, as: UTF8.self))")
        }
        #expect(users.map(\.id) == ["alice", "bob"])
    }

    /// The public face of the same operations (what an app's backend in
    /// Swift calls): the tokens connect, dates are `Date`s, agentSay gives
    /// the message's id.
    @Test func thePublicCredentialAndAgentCallsWork() async throws {
        let server = try await TestServer.start()
        let app = server.app
        let start = Date()
        let access = try await app.accessToken(forUserId: "alice")
        let session = try await app.sessionToken(forUserId: "bob", ttl: .seconds(60))
        let alice = server.makeClient()
        let user = try await alice.connect(userId: "alice", accessToken: access.token)
        let conversation = try await alice.startConversation()
        let hi = try await alice.sendMessage(.text("hi"), in: conversation.id)
        try await eventually("hi sent") { try await alice.message(withId: hi.id)?.state == .sent }
        let said = try await app.agentSay("hello", in: conversation.id)
        let messages = try await app.messages(conversationId: conversation.id)
        await alice.shutdown()
        await server.stop()
        #expect(access.expiresAt == nil && user.id == "alice")
        let expiry = try #require(session.expiresAt)
        #expect(abs(expiry.timeIntervalSince(start) - 60) < 10)
        #expect(messages.last?.id == said)
    }

    @Test func expiredAccessTokensAreRefused() async throws {
        let server = try await TestServer.start()
        let tokens = try await server.app.issueTokens(userId: "alice")
        let auth = [HTTPWire.Header.apiKey: ChatServer.demoApiKey, "Authorization": "Bearer \(tokens.accessToken)"]
        let before = try await http("GET", server.baseURL + "/v1/conversations", headers: auth)
        try await server.app.expireAccessTokens(userId: "alice")
        let after = try await http("GET", server.baseURL + "/v1/conversations", headers: auth)
        let sessions = try await server.app.sessions(userId: "alice")
        await server.stop()
        #expect(before.status == 200)
        #expect(after.status == 401 && after.code == "expiredToken")
        #expect(sessions.count == 1, "expiring access tokens keeps the session (the SDK refreshes)")
    }

    @Test func aRevokeClosesTheUsersEventStreamWithTheReason() async throws {
        let server = try await TestServer.start()
        let tokens = try await server.app.issueTokens(userId: "alice")
        let transport = HTTPTransport(baseURL: server.baseURL)
        let connection = try await transport.openRealtime(
            RealtimeRequest(
                apiKey: ChatServer.demoApiKey, accessToken: tokens.accessToken,
                deviceId: "device-1", afterUserSeq: nil))
        try await eventually("the stream to open") { server.server.realtimeConnectionCount == 1 }
        let received = Task {
            var signals: [RealtimeSignal] = []
            for await signal in connection.signals { signals.append(signal) }
            return signals
        }
        try await server.app.revokeTokens(userId: "alice")
        try await eventually("the server to close the stream") { server.server.realtimeConnectionCount == 0 }
        // The close reaches the client by itself (closing from here before it
        // does would end the stream "by the client": a race seen under load).
        let watchdog = Task {
            try await Task.sleep(for: .seconds(15))
            connection.close()
        }
        let signals = await received.value
        watchdog.cancel()
        let sessions = try await server.app.sessions(userId: "alice")
        let refused = try await http(
            "GET", server.baseURL + "/v1/conversations",
            headers: [HTTPWire.Header.apiKey: ChatServer.demoApiKey, "Authorization": "Bearer \(tokens.accessToken)"])
        await server.stop()
        #expect(signals == [.closed(reason: "The user's tokens were revoked", by: .server)])
        #expect(sessions.isEmpty)
        #expect(refused.status == 401 && refused.code == "invalidToken")
    }
}
