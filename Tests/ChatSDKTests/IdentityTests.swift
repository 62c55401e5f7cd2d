import ChatBackend
import ChatCore
import ChatSDK
import ChatSimulation
import ChatTestSupport
import Foundation
import Testing

/// A5–A14 through the public API, against the embedded backend.
@Suite struct IdentityTests {
    func jwt(_ user: String, expiresIn: Duration = .seconds(3600), secret: String = World.jwtSecret, world: World) -> String {
        let exp = world.now + expiresIn
        return AppJWT.sign(
            AppJWT.Claims(externalId: user, exp: Date(timeIntervalSince1970: Double(exp.milliseconds) / 1000)), secret: secret)
    }

    struct Renewer: AuthenticationDelegate {
        let next: @Sendable () -> String?
        let calls = Locked(0)
        func onInvalidAuth() async -> String? {
            calls.withLock { $0 += 1 }
            return next()
        }
    }

    struct SessionRenewer: CallbackSessionDelegate {
        enum Answer: Sendable {
            case token(@Sendable () -> String)
            case decline, fail
        }
        let answer: Answer
        let events = Locked<[String]>([])
        func sessionTokenDidRequire(success: @escaping @Sendable (String?) -> Void, fail: @escaping @Sendable (any Error) -> Void) {
            switch answer {
            case .token(let make): success(make())
            case .decline: success(nil)
            case .fail: fail(ChatError(.providerFailed, "the app could not get a token"))
            }
        }
        func sessionWasRefreshed() { events.withLock { $0.append("refreshed") } }
        func sessionWasClosed() { events.withLock { $0.append("closed") } }
        func sessionDidHaveError(_ error: ChatError) { events.withLock { $0.append("error \(error.code)") } }
    }

    @Test func jwtLoginAndItsRefusals() throws {
        let f = try Fixture()
        let user = try f.call { try await f.client.loginUser(jwt: jwt("alice", world: f.world)) }
        #expect(user.id == "alice" && user.authenticationType == .jwt)
        #expect(try f.call { await f.client.getCurrentUser() }?.authenticationType == .jwt)
        try f.call { await f.client.clearCurrentUser() }
        let forged = jwt("mallory", secret: "another-secret", world: f.world)
        #expect(chatError { try f.call { try await f.client.loginUser(jwt: forged) } }?.code == ChatError.Code(.invalidJWT))
        let expired = jwt("bob", expiresIn: .zero, world: f.world)
        let error = chatError { try f.call { try await f.client.loginUser(jwt: expired) } }
        #expect(error?.code == ChatError.Code(.expiredJWT))
        #expect(error?.message == "The JWT has expired")
        #expect(try f.call { await f.client.getCurrentUser() } == nil, "a refused login leaves nobody signed in")
        #expect(chatError { try f.call { try await f.client.loginUser(jwt: "not.a.jwt") } }?.code == ChatError.Code(.invalidJWT))
    }

    @Test func anExpiredJWTIsRenewedThroughTheDelegateWithoutInterruption() throws {
        let f = try Fixture()
        let world = f.world
        let renewer = Renewer {
            AppJWT.sign(
                AppJWT.Claims(
                    externalId: "alice", exp: Date(timeIntervalSince1970: Double((world.now + .seconds(7200)).milliseconds) / 1000)),
                secret: World.jwtSecret)
        }
        try f.call { try await f.client.setAuthenticationDelegate(renewer) }
        try f.call { try await f.client.loginUser(jwt: jwt("alice", expiresIn: .seconds(600), world: f.world)) }
        let conversation = try f.call { try await f.client.startConversation() }
        try f.call { try await f.client.sendMessage(.text("before"), in: conversation.id) }
        f.world.advance(by: .seconds(3660))
        let message = try f.call { try await f.client.sendMessage(.text("after"), in: conversation.id) }
        #expect(try f.call { try await f.client.message(withId: message.id) }?.state == .sent)
        #expect(renewer.calls.withLock { $0 } == 1)
        #expect(f.events.withLock { $0 }.contains(.authenticationFailed(ChatError(ChatError.Code(.expiredJWT), "The JWT has expired"))))
    }

    /// A delegate implementing only the method that says for whom and why.
    struct ReasonedRenewer: AuthenticationDelegate {
        let asked = Locked<[String]>([])
        func onInvalidAuth(userId: String, reason: ChatError) async -> String? {
            asked.withLock { $0.append("\(userId) \(reason.code)") }
            return nil
        }
    }

    @Test func theDelegateIsToldForWhichUserAndWhy() throws {
        let f = try Fixture()
        let renewer = ReasonedRenewer()
        try f.call { try await f.client.setAuthenticationDelegate(renewer) }
        try f.call { try await f.client.loginUser(jwt: jwt("alice", expiresIn: .seconds(600), world: f.world)) }
        _ = try f.call { try await f.client.startConversation() }
        f.world.advance(by: .seconds(3660))
        _ = try? f.call { try await f.client.startConversation() }
        #expect(renewer.asked.withLock { $0 } == ["alice expiredJWT"])
        #expect(try f.call { await f.client.getCurrentUser() } == nil, "nil from the delegate logs the user out")
    }

    @Test func withoutADelegateAnExpiredJWTLogsTheUserOut() throws {
        let f = try Fixture()
        try f.call { try await f.client.loginUser(jwt: jwt("alice", expiresIn: .seconds(600), world: f.world)) }
        _ = try f.call { try await f.client.startConversation() }
        f.world.advance(by: .seconds(3660))
        #expect(try f.call { await f.client.getCurrentUser() } == nil)
        #expect(f.sessionStates.last == .signedOut)
    }

    @Test func anonymousConversationsMergeIntoTheAccount() throws {
        let f = try Fixture()
        let anonymous = try f.call { try await f.client.loginAnonymous() }
        #expect(anonymous.isAnonymous && anonymous.authenticationType == .anonymous)
        for title in ["one", "two"] {
            let c = try f.call { try await f.client.startConversation(title: title) }
            try f.call { try await f.client.sendMessage(.text(title), in: c.id) }
        }
        try f.call { try await f.client.loginUser(jwt: jwt("alice", world: f.world)) }
        let list = Collected(f.client.watchConversations(), in: f.world)
        f.world.runUntilIdle()
        #expect(list.last?.data.elements.count == 2)
        #expect(f.world.backend.conversations(userId: "alice").count == 2)
    }

    @Test func logoutOnlineAndOffline() throws {
        let f = try Fixture()
        #expect(chatError { try f.call { try await f.client.logout() } }?.code == .userNotAuthorized)
        try f.call { try await f.client.loginUser(jwt: jwt("alice", world: f.world)) }
        #expect(f.world.backend.sessions(userId: "alice").count == 1)
        #expect(f.world.backend.pushSubscriptions(userId: "alice").count == 1)
        try f.call { try await f.client.logout() }
        #expect(f.world.backend.sessions(userId: "alice").isEmpty)
        #expect(f.world.backend.pushSubscriptions(userId: "alice").isEmpty)

        try f.call { try await f.client.loginUser(jwt: jwt("bob", world: f.world)) }
        f.world.network.setOnline(false)
        try f.call { try await f.client.logout() }
        #expect(try f.call { await f.client.getCurrentUser() } == nil, "local data goes at once")
        #expect(f.world.backend.sessions(userId: "bob").count == 1, "the server part waits")
        f.world.network.setOnline(true)
        f.world.runUntilIdle()
        #expect(f.world.backend.sessions(userId: "bob").isEmpty)
        #expect(f.world.backend.pushSubscriptions(userId: "bob").isEmpty)
    }

    @Test func clearingKeepsTheServerSessionAndPushes() throws {
        let f = try Fixture()
        try f.call { try await f.client.loginUser(jwt: jwt("alice", world: f.world)) }
        try f.call { await f.client.deauthorizeUser() }
        #expect(f.world.backend.sessions(userId: "alice").count == 1)
        #expect(f.world.backend.pushSubscriptions(userId: "alice").count == 1)
    }

    @Test func connectPathsFollowTheAppsSettings() throws {
        let f = try Fixture()
        try f.world.backend.updateSetting(apiKey: World.apiKey, key: "allowUserIdOnly", value: "false")
        #expect(chatError { try f.call { try await f.client.connect(userId: "carol") } }?.code == ChatError.Code(.userIdOnlyNotAllowed))
        try f.world.backend.updateSetting(apiKey: World.apiKey, key: "allowUserIdOnly", value: "true")
        #expect(try f.call { try await f.client.connect(userId: "carol") }.authenticationType == .userId)
        try f.call { await f.client.disconnect() }
        let access = try f.world.backend.issueAccessToken(apiKey: World.apiKey, userId: "carol")
        #expect(try f.call { try await f.client.connect(userId: "carol", accessToken: access.token) }.authenticationType == .access)
    }

    @Test(arguments: ["renew", "decline", "fail"])
    func sessionTokensAreRenewedThroughTheSessionDelegate(answer: String) throws {
        let f = try Fixture()
        let world = f.world
        let kind: SessionRenewer.Answer =
            switch answer {
            case "renew":
                .token { (try? world.backend.issueSessionToken(apiKey: World.apiKey, userId: "dave", ttl: .seconds(600)).token) ?? "" }
            case "decline": .decline
            default: .fail
            }
        let delegate = SessionRenewer(answer: kind)
        try f.call { try await f.client.setSessionDelegate(delegate) }
        let token = try f.world.backend.issueSessionToken(apiKey: World.apiKey, userId: "dave", ttl: .seconds(600))
        try f.call { try await f.client.connect(userId: "dave", sessionToken: token.token) }
        let conversation = try f.call { try await f.client.startConversation() }
        try f.call { try await f.client.sendMessage(.text("one"), in: conversation.id) }
        f.world.advance(by: .seconds(660))
        switch answer {
        case "renew":
            #expect(delegate.events.withLock { $0 } == ["refreshed"])
            #expect(try f.call { await f.client.sessionState } == .authenticated(userId: "dave", via: .session))
        case "decline":
            #expect(delegate.events.withLock { $0 } == ["closed"])
            #expect(try f.call { await f.client.sessionState } == .closed(reason: "sessionWasClosed"))
        default:
            #expect(delegate.events.withLock { $0 } == ["error providerFailed"])
        }
        #expect(f.world.network.requestCount < 20, "no refresh loop")
        #expect(chatError { try f.call { try await f.client.setSessionDelegate(nil) } }?.code == .invalidArgument, "set before connect")
    }

    @Test func authorizeReturnsAtOnceAndWarns() throws {
        let f = try Fixture()
        let warnings = try f.call { await f.client.authorize(user: ChatUser(id: "u-1", name: "Dana", attributes: ["plan": "gold"])) }
        #expect(warnings.isEmpty)
        #expect(try f.call { await f.client.sessionState } == .authenticated(userId: "u-1", via: .authorized))
        let requests = f.world.network.requestCount
        #expect(try f.call { await f.client.authorize(user: ChatUser(id: "u-1")) }.isEmpty)
        #expect(f.world.network.requestCount == requests, "the same user again makes no request")
        let switching = try f.call { await f.client.authorize(user: ChatUser(id: "dana@example.com")) }
        #expect(switching.count == 2)
        #expect(f.world.backend.sessions(userId: "u-1").count == 1, "the previous user's session stays open")
        #expect(f.world.backend.pushSubscriptions(userId: "u-1").count == 1)
        #expect(try f.call { await f.client.authorize(user: ChatUser(id: "+33 6 12 34 56 78")) }.contains { $0.contains("phone number") })
    }

    @Test func attributesAndPrefillReachTheNextOpenedConversation() throws {
        let f = try Fixture()
        try f.call { await f.client.authorize(user: ChatUser(id: "u-2")) }
        try f.call { try await f.client.updateData(["city": "Lyon"]) }
        try f.call { await f.client.prefill(message: "About my bill") }
        let conversation = try f.call { try await f.client.startConversation() }
        try f.call { try await f.client.sendMessage(.text("hi"), in: conversation.id) }
        #expect(f.world.backend.users().first { $0.id == "u-2" }?.attributes["city"] == nil, "not before a conversation opens")
        let details = Collected(f.client.watchConversation(withId: conversation.id), in: f.world)
        f.world.runUntilIdle()
        #expect(details.last?.data.draft == "About my bill")
        #expect(f.world.backend.users().first { $0.id == "u-2" }?.attributes["city"] == "Lyon")
        let again = Collected(f.client.watchConversation(withId: conversation.id), in: f.world)
        f.world.runUntilIdle()
        #expect(again.last?.data.draft == "About my bill", "the draft stays with that conversation")
    }

    /// updateData(nil) clears the user's attributes, those pending with
    /// them, when the next conversation opens online; what is set after it
    /// is all the user has (A13).
    @Test func updateDataWithNilClearsTheAttributes() throws {
        let f = try Fixture()
        try f.call { await f.client.authorize(user: ChatUser(id: "u-3")) }
        try f.call { try await f.client.updateData(["city": "Lyon", "plan": "gold"]) }
        let conversation = try f.call { try await f.client.startConversation() }
        try f.call { try await f.client.sendMessage(.text("hi"), in: conversation.id) }
        func serverAttributes() -> [String: String]? { f.world.backend.users().first { $0.id == "u-3" }?.attributes }
        func open() {
            _ = Collected(f.client.watchConversation(withId: conversation.id), in: f.world)
            f.world.runUntilIdle()
        }
        open()
        #expect(serverAttributes() == ["city": "Lyon", "plan": "gold"])
        try f.call { try await f.client.updateData(["lang": "fr"]) }
        try f.call { try await f.client.updateData(nil) }
        #expect(serverAttributes() == ["city": "Lyon", "plan": "gold"], "not before a conversation opens")
        open()
        #expect(serverAttributes() == [:], "cleared, and the pending lang=fr with them")
        try f.call { try await f.client.updateData(nil) }
        try f.call { try await f.client.updateData(["tier": "1"]) }
        open()
        #expect(serverAttributes() == ["tier": "1"])
    }

    @Test func profileImagesAreCheckedBeforeUpload() throws {
        let f = try Fixture()
        try f.call { try await f.client.loginUser(jwt: jwt("alice", world: f.world)) }
        let before = f.world.network.requestCount
        #expect(
            chatError {
                try f.call {
                    try await f.client.updateCurrentUserInfo(nickname: nil, image: ProfileImage(mimeType: "image/gif", size: 100))
                }
            }?.code == ChatError.Code(.unsupportedMediaType))
        #expect(
            chatError {
                try f.call {
                    try await f.client.updateCurrentUserInfo(nickname: nil, image: ProfileImage(mimeType: "image/png", size: 6_000_000))
                }
            }?.code == ChatError.Code(.attachmentTooLarge))
        #expect(f.world.network.requestCount == before, "refused before upload")
        let user = try f.call {
            try await f.client.updateCurrentUserInfo(nickname: "Al", image: ProfileImage(mimeType: "image/png", size: 200_000))
        }
        #expect(user.nickname == "Al")
    }

    @Test func afterAnAnonymousLogoutTheNextUseIsANewAnonymousUser() throws {
        let f = try Fixture()
        let first = try f.call { try await f.client.loginAnonymous() }
        try f.call { try await f.client.logout() }
        _ = try f.call { try await f.client.startConversation() }
        let second = try f.call { await f.client.getCurrentUser() }
        #expect(second?.isAnonymous == true)
        #expect(second?.id != first.id)
    }
}
