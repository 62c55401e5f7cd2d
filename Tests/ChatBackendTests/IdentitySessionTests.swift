import ChatCore
import ChatTestSupport
import Foundation
import Synchronization
import Testing

@testable import ChatBackend

extension TestWorld {
    /// Signs in with `request` from `device`; returns the tokens, user and merged ids.
    func signIn(_ request: WireRequest, device: String = "device-1", token: String? = nil) throws -> (TokenPair, WireUser, [String]) {
        let response = try backend.handle(WireEnvelope(apiKey: Self.apiKey, accessToken: token, deviceId: device, request: request)).get()
        guard case .session(let tokens, let user, let merged) = response else { throw WireError(.internalError, "unexpected \(response)") }
        return (tokens, user, merged)
    }

    func jwt(_ externalId: String) -> String {
        AppJWT.sign(.init(externalId: externalId, exp: (clock.now + .seconds(600)).date), secret: "test-secret")
    }

    func request(_ request: WireRequest, token: String?, device: String) -> Result<WireResponse, WireError> {
        backend.handle(WireEnvelope(apiKey: Self.apiKey, accessToken: token, deviceId: device, request: request))
    }
}

/// Collects the reasons a realtime subscription was closed.
typealias CloseLog = Locked<[WireError]>

extension Locked where Value == [WireError] {
    convenience init() { self.init([]) }
    var reasons: [WireError] { value }
}

/// Anonymous users, merges, sessions, devices, pushes and logout (A7–A9, C1, S1).
@Suite struct IdentitySessionTests {
    @Test func anonymousLoginCreatesANewAnonymousUserEachTime() throws {
        let world = try TestWorld()
        let (tokens, user, _) = try world.signIn(.loginAnonymous)
        #expect(user.isAnonymous && user.authenticationType == .anonymous && user.id.hasPrefix("anon-"))
        try world.send("hello", id: "m1", in: "c1", token: tokens.accessToken)
        #expect(world.backend.conversations(userId: user.id).map(\.id) == ["c1"])
        guard case .user(let current) = try world.handle(.getCurrentUser, token: tokens.accessToken).get() else {
            Issue.record("no user")
            return
        }
        #expect(current.authenticationType == .anonymous && current.isAnonymous)
        // After logout, the next anonymous login is somebody new.
        _ = try world.handle(.logout, token: tokens.accessToken).get()
        let (_, next, _) = try world.signIn(.loginAnonymous)
        #expect(next.id != user.id && next.isAnonymous)
        #expect(world.backend.conversations(userId: next.id).isEmpty)
    }

    @Test func loginMergesOneAnonymousConversation() throws {
        let world = try TestWorld()
        let (anon, anonUser, _) = try world.signIn(.loginAnonymous)
        try world.send("help", id: "m1", in: "c-anon", token: anon.accessToken)
        let log = EventLog()
        let closes = CloseLog()
        _ = try world.backend.subscribe(
            apiKey: TestWorld.apiKey, accessToken: anon.accessToken, afterUserSeq: nil,
            sink: { log.append($0) }, onClose: { closes.append($0) }
        ).get()
        let (tokens, user, merged) = try world.signIn(.loginJWT(jwt: world.jwt("alice")), token: anon.accessToken)
        #expect(user.id == "alice" && !user.isAnonymous && user.authenticationType == .jwt)
        #expect(merged == ["c-anon"])
        #expect(try world.conversationPage(token: tokens.accessToken, limit: 10).elements.map(\.id) == ["c-anon"])
        #expect(world.backend.owner(ofConversation: "c-anon") == "alice")
        // The messages came along, and alice can go on writing there.
        #expect(
            try world.messagePage(.listMessages(conversationId: "c-anon", cursor: nil, limit: 10), token: tokens.accessToken).elements.map(
                \.id) == ["m1"])
        try world.send("still me", id: "m2", in: "c-anon", token: tokens.accessToken, create: false)
        // alice was told, so that lists update.
        let kinds = world.backend.events(userId: "alice").map(\.kind)
        guard case .conversationUpdated(let conversation) = kinds.first else {
            Issue.record("expected conversationUpdated: \(kinds)")
            return
        }
        #expect(conversation.id == "c-anon")
        // The anonymous user is retired: tokens, sessions, realtime, pushes.
        #expect(world.errorCode(.listConversations(cursor: nil, limit: 1), token: anon.accessToken) == .invalidToken)
        #expect(world.errorCode(.refresh(refreshToken: anon.refreshToken), token: nil) == .invalidRefreshToken)
        #expect(world.backend.sessions(userId: anonUser.id).isEmpty)
        #expect(world.backend.pushSubscriptions(userId: anonUser.id).isEmpty)
        #expect(world.backend.subscriptionCount(userId: anonUser.id) == 0)
        #expect(closes.reasons.map(\.code) == [.invalidToken])
        #expect(world.backend.users().first { $0.id == anonUser.id }?.mergedInto == "alice")
        #expect(world.backend.pushSubscriptions(userId: "alice").map(\.deviceId) == ["device-1"])
    }

    @Test func loginMergesSeveralConversationsIntoAnExistingUsersList() throws {
        let world = try TestWorld()
        // alice already has a conversation from another device.
        let (alice, _, _) = try world.signIn(.loginJWT(jwt: world.jwt("alice")), device: "phone")
        try world.send("old", id: "m0", in: "c-alice", token: alice.accessToken)
        world.clock.advance(.seconds(1))
        let (anon, _, _) = try world.signIn(.loginAnonymous, device: "tablet")
        for (index, id) in ["c-a", "c-b", "c-c"].enumerated() {
            world.clock.advance(.seconds(1))
            try world.send("q\(index)", id: "m\(index)", in: id, token: anon.accessToken)
        }
        let (tokens, _, merged) = try world.signIn(.loginJWT(jwt: world.jwt("alice")), device: "tablet", token: anon.accessToken)
        #expect(merged == ["c-c", "c-b", "c-a"])
        #expect(try world.conversationPage(token: tokens.accessToken, limit: 10).elements.map(\.id) == ["c-c", "c-b", "c-a", "c-alice"])
        // alice's first session still works and sees the same single list.
        #expect(try world.conversationPage(token: alice.accessToken, limit: 10).elements.count == 4)
        let updated = world.backend.events(userId: "alice").compactMap { event -> String? in
            if case .conversationUpdated(let c) = event.kind, c.id != "c-alice" { return c.id }
            return nil
        }
        #expect(updated == ["c-c", "c-b", "c-a"])
    }

    @Test func loginWithANonAnonymousTokenDoesNotMerge() throws {
        let world = try TestWorld()
        let (bob, _, _) = try world.signIn(.loginJWT(jwt: world.jwt("bob")))
        try world.send("bob's", id: "m1", in: "c-bob", token: bob.accessToken)
        let (_, _, merged) = try world.signIn(.loginJWT(jwt: world.jwt("alice")), token: bob.accessToken)
        #expect(merged.isEmpty)
        #expect(world.backend.owner(ofConversation: "c-bob") == "bob")
        // bob's session and push subscription stay open (A12: no logout in between).
        #expect(world.backend.sessions(userId: "bob").count == 1)
        #expect(world.backend.pushSubscriptions(userId: "bob").map(\.deviceId) == ["device-1"])
        #expect(world.backend.pushSubscriptions(userId: "alice").map(\.deviceId) == ["device-1"])
    }

    @Test func anExpiredAnonymousTokenStillMerges() throws {
        let world = try TestWorld()
        let (anon, _, _) = try world.signIn(.loginAnonymous)
        try world.send("hi", id: "m1", in: "c1", token: anon.accessToken)
        world.clock.advance(.seconds(7200))
        let (_, _, merged) = try world.signIn(.loginJWT(jwt: world.jwt("alice")), token: anon.accessToken)
        #expect(merged == ["c1"])
    }

    @Test func everySignInOpensASessionAndSubscribesTheDevice() throws {
        let world = try TestWorld()
        _ = try world.signIn(.loginJWT(jwt: world.jwt("alice")), device: "phone")
        _ = try world.signIn(.connectUserId(userId: "alice"), device: "tablet")
        let sessions = world.backend.sessions(userId: "alice")
        #expect(sessions.map(\.deviceId) == ["phone", "tablet"])
        #expect(sessions.map(\.authenticationType) == [.jwt, .userId])
        #expect(world.backend.sessionCount(userId: "alice") == 2)
        #expect(world.backend.pushSubscriptions(userId: "alice").map(\.deviceId) == ["phone", "tablet"])
    }

    @Test func issuedTokensBindToTheDeviceOfTheirFirstRequest() throws {
        let world = try TestWorld()
        let pair = try world.tokens("alice")
        #expect(world.backend.sessions(userId: "alice").map(\.deviceId) == [nil])
        #expect(world.backend.pushSubscriptions(userId: "alice").isEmpty)
        _ = try world.request(.listConversations(cursor: nil, limit: 1), token: pair.accessToken, device: "phone").get()
        #expect(world.backend.sessions(userId: "alice").map(\.deviceId) == ["phone"])
        #expect(world.backend.sessions(userId: "alice").map(\.authenticationType) == [.tokens])
        #expect(world.backend.pushSubscriptions(userId: "alice").map(\.deviceId) == ["phone"])
        // A refresh keeps the same session.
        _ = try world.request(.refresh(refreshToken: pair.refreshToken), token: nil, device: "phone").get()
        #expect(world.backend.sessions(userId: "alice").count == 1)
    }

    @Test func logoutClosesTheSessionAndRemovesOnlyThisDevicesSubscription() throws {
        let world = try TestWorld()
        let (phone, _, _) = try world.signIn(.loginJWT(jwt: world.jwt("alice")), device: "phone")
        let (tablet, _, _) = try world.signIn(.loginJWT(jwt: world.jwt("alice")), device: "tablet")
        try world.send("hi", id: "m1", in: "c1", token: phone.accessToken)
        let closes = CloseLog()
        let log = EventLog()
        _ = try world.backend.subscribe(
            apiKey: TestWorld.apiKey, accessToken: phone.accessToken, afterUserSeq: nil,
            sink: { log.append($0) }, onClose: { closes.append($0) }
        ).get()
        let tabletLog = EventLog()
        _ = try world.backend.subscribe(apiKey: TestWorld.apiKey, accessToken: tablet.accessToken, afterUserSeq: nil) {
            tabletLog.append($0)
        }.get()

        _ = try world.request(.logout, token: phone.accessToken, device: "phone").get()
        #expect(world.backend.sessions(userId: "alice").map(\.deviceId) == ["tablet"])
        #expect(world.backend.pushSubscriptions(userId: "alice").map(\.deviceId) == ["tablet"])
        #expect(world.errorCode(.listConversations(cursor: nil, limit: 1), token: phone.accessToken) == .invalidToken)
        #expect(world.errorCode(.refresh(refreshToken: phone.refreshToken), token: nil) == .invalidRefreshToken)
        #expect(closes.reasons.map(\.code) == [.invalidToken])
        #expect(world.backend.subscriptionCount(userId: "alice") == 1)
        // Pushes now reach the tablet only; its realtime goes on.
        try world.backend.agentSay(conversationId: "c1", text: "Hello from the clinic")
        #expect(world.backend.pushes(userId: "alice").map(\.deviceId) == ["tablet"])
        #expect(world.backend.pushes(userId: "alice").first?.preview == "Hello from the clinic")
        #expect(tabletLog.events.count == 2 && log.events.isEmpty)
        // Logging out again (a queued retry) is a harmless no-op.
        #expect((try? world.request(.logout, token: phone.accessToken, device: "phone").get()) == .ok)
    }

    @Test func logoutWorksWithAnExpiredTokenAndRefusesNobody() throws {
        let world = try TestWorld()
        let (tokens, _, _) = try world.signIn(.connectUserId(userId: "alice"))
        world.clock.advance(.seconds(7200))
        #expect((try? world.handle(.logout, token: tokens.accessToken).get()) == .ok)
        #expect(world.backend.sessions(userId: "alice").isEmpty)
        #expect(world.backend.pushSubscriptions(userId: "alice").isEmpty)
        #expect(world.errorCode(.logout, token: nil) == .userNotAuthorized)
        #expect(world.errorCode(.logout, token: "at-unknown") == .userNotAuthorized)
    }

    @Test func pushesKeepArrivingAfterAClientSideClearOrTokenExpiry() throws {
        // A client clearing its local data (A4) tells the server nothing: the
        // session and the push subscription stay, and so do the pushes.
        let world = try TestWorld()
        let (tokens, _, _) = try world.signIn(.loginJWT(jwt: world.jwt("alice")), device: "phone")
        try world.send("hi", id: "m1", in: "c1", token: tokens.accessToken)
        #expect(world.backend.pushes(userId: "alice").isEmpty, "no push for one's own message")
        world.backend.expireAccessTokens(userId: "alice")
        try world.backend.agentSay(conversationId: "c1", text: "one")
        world.backend.revokeTokens(userId: "alice")
        try world.backend.agentSay(conversationId: "c1", text: "two")
        #expect(world.backend.pushes(userId: "alice").map(\.preview) == ["one", "two"])
        #expect(world.backend.pushLog().count == 2)
        #expect(world.backend.pushSubscriptions(userId: "alice").map(\.deviceId) == ["phone"])
        #expect(world.backend.sessions(userId: "alice").isEmpty, "revocation closes sessions")
    }

    @Test func registerAndUnregisterDevice() throws {
        let world = try TestWorld()
        let (tokens, _, _) = try world.signIn(.connectUserId(userId: "alice"), device: "phone")
        #expect(world.backend.pushSubscriptions(userId: "alice").map(\.pushToken) == [nil])
        _ = try world.request(.registerDevice(pushToken: "apns-123"), token: tokens.accessToken, device: "phone").get()
        #expect(world.backend.pushSubscriptions(userId: "alice").map(\.pushToken) == ["apns-123"])
        // A push names the token it went to (C4); a new token replaces the old one.
        try world.send("hi", id: "m1", in: "c1", token: tokens.accessToken)
        try world.backend.agentSay(conversationId: "c1", text: "one")
        _ = try world.request(.registerDevice(pushToken: "apns-456"), token: tokens.accessToken, device: "phone").get()
        #expect(world.backend.pushSubscriptions(userId: "alice").map(\.pushToken) == ["apns-456"])
        try world.backend.agentSay(conversationId: "c1", text: "two")
        #expect(world.backend.pushes(userId: "alice").map(\.pushToken) == ["apns-123", "apns-456"])
        #expect(world.errorCode(.registerDevice(pushToken: ""), token: tokens.accessToken) == .badRequest)
        _ = try world.request(.unregisterDevice, token: tokens.accessToken, device: "phone").get()
        #expect(world.backend.pushSubscriptions(userId: "alice").isEmpty)
    }

    @Test func revokeTokensEndsRealtimeButKeepsPushSubscriptions() throws {
        let world = try TestWorld()
        let (tokens, _, _) = try world.signIn(.connectUserId(userId: "alice"))
        let closes = CloseLog()
        _ = try world.backend.subscribe(
            apiKey: TestWorld.apiKey, accessToken: tokens.accessToken, afterUserSeq: nil,
            sink: { _ in }, onClose: { closes.append($0) }
        ).get()
        world.backend.revokeTokens(userId: "alice")
        #expect(closes.reasons.map(\.code) == [.invalidToken])
        #expect(world.backend.subscriptionCount(userId: "alice") == 0)
        #expect(world.backend.pushSubscriptions(userId: "alice").count == 1)
    }

    @Test func anEmptyDeviceIdIsABadRequest() throws {
        let world = try TestWorld()
        #expect(throws: WireError(.badRequest, "The device id is empty")) { try world.signIn(.loginAnonymous, device: "") }
    }
}
