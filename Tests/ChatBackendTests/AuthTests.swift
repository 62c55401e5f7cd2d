import ChatBackend
import ChatCore
import Testing

@Suite struct AuthTests {
    @Test func issuedTokensAuthenticateAndCreateTheUser() throws {
        let world = try TestWorld()
        let pair = try world.tokens("alice")
        #expect(pair.accessExpiresAt == Instant.simulationEpoch + .seconds(3600))
        #expect(pair.refreshExpiresAt == Instant.simulationEpoch + .seconds(30 * 24 * 3600))
        #expect(pair.accessToken != pair.refreshToken)
        #expect(world.backend.users().map(\.id) == ["alice"])
        #expect(world.backend.users().first?.isAnonymous == false)
        let page = try world.conversationPage(token: pair.accessToken, limit: 10)
        #expect(page.elements.isEmpty && page.nextCursor == nil)
    }

    @Test func unknownApiKeyIsRefused() throws {
        let world = try TestWorld()
        let pair = try world.tokens("alice")
        #expect(world.errorCode(.listConversations(cursor: nil, limit: 10), token: pair.accessToken, apiKey: "nope") == .invalidApiKey)
        #expect(world.errorCode(.refresh(refreshToken: pair.refreshToken), token: nil, apiKey: "nope") == .invalidApiKey)
        #expect(throws: WireError(.invalidApiKey)) { try world.backend.issueTokens(apiKey: "nope", userId: "bob") }
        #expect(throws: WireError.self) { try world.backend.settings(apiKey: "nope") }
    }

    @Test func missingOrUnknownAccessTokenIsInvalid() throws {
        let world = try TestWorld()
        let pair = try world.tokens("alice")
        #expect(world.errorCode(.listConversations(cursor: nil, limit: 10), token: nil) == .invalidToken)
        #expect(world.errorCode(.listConversations(cursor: nil, limit: 10), token: "at-bogus") == .invalidToken)
        // A refresh token is not an access token.
        #expect(world.errorCode(.listConversations(cursor: nil, limit: 10), token: pair.refreshToken) == .invalidToken)
    }

    @Test func accessTokenExpiresAtItsExpiry() throws {
        let world = try TestWorld()
        let pair = try world.tokens("alice")
        world.clock.advance(.seconds(3599))
        #expect((try? world.conversationPage(token: pair.accessToken, limit: 1)) != nil)
        world.clock.advance(.seconds(1))
        #expect(world.errorCode(.listConversations(cursor: nil, limit: 1), token: pair.accessToken) == .expiredToken)
    }

    @Test func refreshRotatesTheRefreshToken() throws {
        let world = try TestWorld()
        let pair = try world.tokens("alice")
        world.clock.advance(.seconds(4000))
        guard case .tokens(let renewed) = try world.handle(.refresh(refreshToken: pair.refreshToken), token: nil).get() else {
            Issue.record("expected tokens")
            return
        }
        #expect(renewed.accessToken != pair.accessToken && renewed.refreshToken != pair.refreshToken)
        #expect(renewed.accessExpiresAt == world.clock.now + .seconds(3600))
        #expect((try? world.conversationPage(token: renewed.accessToken, limit: 1)) != nil)
        // The new one works once.
        guard case .tokens(let third) = try world.handle(.refresh(refreshToken: renewed.refreshToken), token: nil).get() else {
            Issue.record("expected tokens")
            return
        }
        #expect((try? world.conversationPage(token: third.accessToken, limit: 1)) != nil)
    }

    /// A spent refresh token that comes back is a stolen copy or a replay
    /// (OAuth 2.0 security BCP): it is refused, and the family minted from it
    /// is revoked with it (issue 26, S4). Without the family's revocation,
    /// whoever holds the newest pair would go on.
    @Test func aReusedRefreshTokenRevokesItsFamily() throws {
        let world = try TestWorld()
        let pair = try world.tokens("alice")
        let other = try world.tokens("alice") // another session of the same user
        guard case .tokens(let renewed) = try world.handle(.refresh(refreshToken: pair.refreshToken), token: nil).get() else {
            Issue.record("expected tokens")
            return
        }
        #expect(world.errorCode(.refresh(refreshToken: pair.refreshToken), token: nil) == .invalidRefreshToken)
        #expect(world.errorCode(.listConversations(cursor: nil, limit: 1), token: renewed.accessToken) == .invalidToken)
        #expect(world.errorCode(.refresh(refreshToken: renewed.refreshToken), token: nil) == .invalidRefreshToken)
        #expect(world.backend.sessionCount(userId: "alice") == 1)
        // The user's other session is not of that family.
        #expect((try? world.conversationPage(token: other.accessToken, limit: 1)) != nil)
    }

    @Test func refreshTokenErrors() throws {
        let world = try TestWorld()
        #expect(world.errorCode(.refresh(refreshToken: "rt-unknown"), token: nil) == .invalidRefreshToken)
        let pair = try world.tokens("alice")
        // An access token is not a refresh token.
        #expect(world.errorCode(.refresh(refreshToken: pair.accessToken), token: nil) == .invalidRefreshToken)
        world.clock.advance(.seconds(30 * 24 * 3600))
        #expect(world.errorCode(.refresh(refreshToken: pair.refreshToken), token: nil) == .expiredRefreshToken)
    }

    @Test func expireAccessTokensExpiresOnlyAccessTokensOfThatUser() throws {
        let world = try TestWorld()
        let alice = try world.tokens("alice")
        let bob = try world.tokens("bob")
        world.backend.expireAccessTokens(userId: "alice")
        #expect(world.errorCode(.listConversations(cursor: nil, limit: 1), token: alice.accessToken) == .expiredToken)
        #expect((try? world.conversationPage(token: bob.accessToken, limit: 1)) != nil)
        // The refresh token still works and gives a usable access token.
        guard case .tokens(let renewed) = try world.handle(.refresh(refreshToken: alice.refreshToken), token: nil).get() else {
            Issue.record("expected tokens")
            return
        }
        #expect((try? world.conversationPage(token: renewed.accessToken, limit: 1)) != nil)
    }

    @Test func revokeTokensInvalidatesAccessAndRefresh() throws {
        let world = try TestWorld()
        let alice = try world.tokens("alice")
        #expect(world.backend.sessionCount(userId: "alice") == 1)
        world.backend.revokeTokens(userId: "alice")
        #expect(world.errorCode(.listConversations(cursor: nil, limit: 1), token: alice.accessToken) == .invalidToken)
        #expect(world.errorCode(.refresh(refreshToken: alice.refreshToken), token: nil) == .invalidRefreshToken)
        #expect(world.backend.sessionCount(userId: "alice") == 0)
        // New tokens can be issued afterwards.
        let again = try world.tokens("alice")
        #expect((try? world.conversationPage(token: again.accessToken, limit: 1)) != nil)
    }

    @Test func tokensOfAnotherAppAreInvalidThere() throws {
        let world = try TestWorld()
        try world.backend.createApp(apiKey: "other-key", jwtSecret: "x")
        let alice = try world.tokens("alice")
        #expect(world.errorCode(.listConversations(cursor: nil, limit: 1), token: alice.accessToken, apiKey: "other-key") == .invalidToken)
        #expect(world.errorCode(.refresh(refreshToken: alice.refreshToken), token: nil, apiKey: "other-key") == .invalidRefreshToken)
        // Ids are per app: the other app's "alice" is another user, whose
        // tokens are not the demo app's alice's (PerAppIdTests).
        let otherAlice = try world.backend.issueTokens(apiKey: "other-key", userId: "alice")
        #expect(world.errorCode(.listConversations(cursor: nil, limit: 1), token: otherAlice.accessToken) == .invalidToken)
    }

    @Test func settingsUseTheirTTLs() throws {
        var settings = AppSettings()
        settings.accessTokenTTL = .seconds(60)
        let world = try TestWorld(settings: settings)
        #expect(try world.backend.settings(apiKey: TestWorld.apiKey).accessTokenTTL == .seconds(60))
        #expect(try world.tokens("alice").accessExpiresAt == world.clock.now + .seconds(60))
        try world.backend.updateSettings(apiKey: TestWorld.apiKey) { $0.accessTokenTTL = .seconds(10) }
        #expect(try world.tokens("alice").accessExpiresAt == world.clock.now + .seconds(10))
        // Absurd durations saturate instead of crashing.
        try world.backend.updateSettings(apiKey: TestWorld.apiKey) { $0.accessTokenTTL = .seconds(Int64.max) }
        #expect(try world.tokens("alice").accessExpiresAt > world.clock.now)
    }

    @Test func emptyUserIdIsABadRequest() throws {
        let world = try TestWorld()
        #expect(throws: WireError(.badRequest, "The user id is empty")) { try world.tokens("") }
    }

    @Test func everyHandledRequestIsCounted() throws {
        let world = try TestWorld()
        let pair = try world.tokens("alice")
        #expect(world.backend.requestCount == 0)
        _ = world.handle(.listConversations(cursor: nil, limit: 1), token: pair.accessToken)
        _ = world.handle(.listConversations(cursor: nil, limit: 1), token: nil)
        #expect(world.backend.requestCount == 2)
    }
}
