import ChatBackend
import ChatCore
import ChatSimulation
import ChatTestSupport
import Testing

@testable import ChatSDK

/// `authorize(user:auth:)` with each field of `ChatAuth` (A12): the token
/// and what its scheme says it is, the header fields, the user signature.
@Suite struct ChatAuthTests {
    /// Keeps what the client hands its transport.
    struct Recording: ChatTransport {
        let inner: any ChatTransport
        let envelopes = Locked<[WireEnvelope]>([])
        let openings = Locked<[RealtimeRequest]>([])
        func perform(_ envelope: WireEnvelope) async throws -> WireResponse {
            envelopes.withLock { $0.append(envelope) }
            return try await inner.perform(envelope)
        }
        func openRealtime(_ request: RealtimeRequest) async throws -> RealtimeConnection {
            openings.withLock { $0.append(request) }
            return try await inner.openRealtime(request)
        }
        func reachability() -> AsyncStream<Bool> { inner.reachability() }
    }

    private func failures(_ f: Fixture) -> [ChatError] {
        f.events.withLock { $0.compactMap { if case .authenticationFailed(let error) = $0 { error } else { nil } } }
    }

    @Test func aSignedUserIdConnectsWhereUserIdsAloneAreNotAllowed() throws {
        let f = try Fixture()
        try f.world.backend.updateSetting(apiKey: World.apiKey, key: "allowUserIdOnly", value: "false")
        try f.call { await f.client.authorize(user: ChatUser(id: "u-1")) }
        #expect(failures(f).map(\.code) == [.userIdOnlyNotAllowed])
        try f.call { await f.client.deauthorizeUser() }
        let signature = try f.world.backend.userSignature(apiKey: World.apiKey, userId: "u-2")
        try f.call { await f.client.authorize(user: ChatUser(id: "u-2"), auth: ChatAuth(signature: signature)) }
        #expect(try f.call { await f.client.sessionState } == .authenticated(userId: "u-2", via: .authorized))
    }

    @Test func aWrongSignatureClosesTheSession() throws {
        let f = try Fixture()
        let others = try f.world.backend.userSignature(apiKey: World.apiKey, userId: "someone-else")
        try f.call { await f.client.authorize(user: ChatUser(id: "u-1"), auth: ChatAuth(signature: others)) }
        #expect(failures(f).map(\.code) == [.invalidSignature])
        #expect(try f.call { await f.client.sessionState } == .closed(reason: "invalidSignature"))
        #expect(!f.world.backend.users().contains { $0.id == "u-1" })
    }

    @Test func theSchemeSaysWhetherTheTokenIsAnAccessOrASessionToken() throws {
        let f = try Fixture()
        let access = try f.world.backend.issueAccessToken(apiKey: World.apiKey, userId: "u-1")
        try f.call { await f.client.authorize(user: ChatUser(id: "u-1"), auth: ChatAuth(token: access.token, scheme: "Access")) }
        #expect(try f.call { await f.client.sessionState } == .authenticated(userId: "u-1", via: .authorized))
        try f.call { await f.client.deauthorizeUser() }
        // A session token is no access token: as one, it is refused.
        let session = try f.world.backend.issueSessionToken(apiKey: World.apiKey, userId: "u-2", ttl: .seconds(600))
        try f.call { await f.client.authorize(user: ChatUser(id: "u-2"), auth: ChatAuth(token: session.token)) }
        #expect(failures(f).map(\.code) == [.invalidAccessToken])
        try f.call { await f.client.deauthorizeUser() }
        try f.call { await f.client.authorize(user: ChatUser(id: "u-2"), auth: ChatAuth(token: session.token, scheme: "session")) }
        #expect(try f.call { await f.client.sessionState } == .authenticated(userId: "u-2", via: .authorized))
    }

    @Test func aRenewedSessionTokenKeepsTheUserAuthorized() throws {
        let f = try Fixture()
        let world = f.world
        let delegate = IdentityTests.SessionRenewer(
            answer: .token { (try? world.backend.issueSessionToken(apiKey: World.apiKey, userId: "u-3", ttl: .seconds(600)).token) ?? "" })
        try f.call { try await f.client.setSessionDelegate(delegate) }
        let token = try f.world.backend.issueSessionToken(apiKey: World.apiKey, userId: "u-3", ttl: .seconds(600))
        try f.call { await f.client.authorize(user: ChatUser(id: "u-3"), auth: ChatAuth(token: token.token, scheme: "session")) }
        let conversation = try f.call { try await f.client.startConversation() }
        try f.call { try await f.client.sendMessage(.text("one"), in: conversation.id) }
        f.world.advance(by: .seconds(660))
        #expect(delegate.events.withLock { $0 } == ["refreshed"])
        #expect(try f.call { await f.client.sessionState } == .authenticated(userId: "u-3", via: .authorized))
    }

    @Test func headerFieldsGoWithEveryRequestAndTheRealtimeConnection() throws {
        let recording = Locked<Recording?>(nil)
        let f = try Fixture(transport: { _, inner in
            let transport = Recording(inner: inner)
            recording.withLock { $0 = transport }
            return transport
        })
        let transport = try #require(recording.withLock { $0 })
        let headers = ["X-Gateway-Session": "gw-123", "Cookie": "sid=abc"]
        try f.call { await f.client.authorize(user: ChatUser(id: "u-1"), auth: ChatAuth(headers: headers)) }
        let conversation = try f.call { try await f.client.startConversation() }
        try f.call { try await f.client.sendMessage(.text("hi"), in: conversation.id) }
        let envelopes = transport.envelopes.withLock { $0 }
        #expect(envelopes.count >= 2)
        #expect(envelopes.allSatisfy { $0.headers == headers })
        #expect(transport.openings.withLock { $0 }.map(\.headers) == [headers])
        // The next user's requests do not carry them.
        try f.call { await f.client.deauthorizeUser() }
        try f.call { await f.client.authorize(user: ChatUser(id: "u-2")) }
        #expect(transport.envelopes.withLock { $0 }.last?.headers == [:])
    }

    @Test(arguments: [
        (ChatAuth(scheme: "bearer"), "ChatAuth.scheme \"bearer\" is not one this SDK knows (access or session): nothing was sent"),
        (ChatAuth(headers: ["Authorization": "x"]), "ChatAuth.headers: Authorization is set by the SDK itself: nothing was sent"),
        (ChatAuth(headers: ["sec-websocket-key": "x"]), "ChatAuth.headers: sec-websocket-key is set by the SDK itself: nothing was sent"),
        (ChatAuth(headers: ["Bad Name": "x"]), "ChatAuth.headers: \"Bad Name\" is not a header field name: nothing was sent"),
        (ChatAuth(headers: ["X-A": "1\r\nX-B: 2"]), "ChatAuth.headers: the value of X-A has a line break: nothing was sent"),
    ])
    func anAuthTheSDKCannotUseSendsNothing(auth: ChatAuth, problem: String) throws {
        let f = try Fixture()
        let warnings = try f.call { await f.client.authorize(user: ChatUser(id: "u-1"), auth: auth) }
        #expect(warnings.isEmpty)
        #expect(f.world.network.requestCount == 0)
        #expect(failures(f) == [ChatError(.invalidArgument, problem)])
        #expect(try f.call { await f.client.sessionState } == .signedOut)
    }
}
