import ChatCore
import Foundation
import Testing

@testable import ChatBackend

/// Connect paths and settings (A10), the profile (A13, A14), and isolation
/// between users.
@Suite struct IdentityConnectTests {
    // MARK: Connect (A10)

    @Test func userIdOnlyIsAllowedByDefaultAndRefusedWhenDisallowed() throws {
        let world = try TestWorld()
        let (tokens, user, _) = try world.signIn(.connectUserId(userId: "alice"))
        #expect(user.authenticationType == .userId && user.id == "alice" && !user.isAnonymous)
        #expect((try? world.conversationPage(token: tokens.accessToken, limit: 1)) != nil)
        try world.backend.updateSetting(apiKey: TestWorld.apiKey, key: "allowUserIdOnly", value: "false")
        #expect(world.errorCode(.connectUserId(userId: "bob"), token: nil) == .userIdOnlyNotAllowed)
        #expect(!world.backend.users().contains { $0.id == "bob" })
    }

    @Test func anAccessTokenCanBeRequired() throws {
        let world = try TestWorld()
        try world.backend.updateSetting(apiKey: TestWorld.apiKey, key: "requireAccessToken", value: "true")
        #expect(world.errorCode(.connectUserId(userId: "alice"), token: nil) == .accessTokenRequired)
        // Nor does an anonymous sign-in get past it.
        #expect(world.errorCode(.loginAnonymous, token: nil) == .accessTokenRequired)
        let credential = try world.backend.issueAccessToken(apiKey: TestWorld.apiKey, userId: "alice")
        #expect(credential.expiresAt == nil)
        let (tokens, user, _) = try world.signIn(.connectAccessToken(userId: "alice", accessToken: credential.token))
        #expect(user.authenticationType == .access)
        #expect((try? world.conversationPage(token: tokens.accessToken, limit: 1)) != nil)
        // It does not expire.
        world.clock.advance(.seconds(365 * 24 * 3600))
        #expect((try? world.signIn(.connectAccessToken(userId: "alice", accessToken: credential.token))) != nil)
    }

    @Test func aWrongOrRevokedAccessTokenIsRefused() throws {
        let world = try TestWorld()
        let alice = try world.backend.issueAccessToken(apiKey: TestWorld.apiKey, userId: "alice")
        _ = try world.backend.issueAccessToken(apiKey: TestWorld.apiKey, userId: "bob")
        #expect(world.errorCode(.connectAccessToken(userId: "bob", accessToken: alice.token), token: nil) == .invalidAccessToken)
        #expect(world.errorCode(.connectAccessToken(userId: "alice", accessToken: "ak-bogus"), token: nil) == .invalidAccessToken)
        // A session token is not an access token, nor a bearer token one.
        let session = try world.backend.issueSessionToken(apiKey: TestWorld.apiKey, userId: "alice")
        #expect(world.errorCode(.connectAccessToken(userId: "alice", accessToken: session.token), token: nil) == .invalidAccessToken)
        #expect(world.errorCode(.listConversations(cursor: nil, limit: 1), token: alice.token) == .invalidToken)

        let (tokens, _, _) = try world.signIn(.connectAccessToken(userId: "alice", accessToken: alice.token))
        try world.backend.revokeCredential(apiKey: TestWorld.apiKey, token: alice.token)
        #expect(world.errorCode(.connectAccessToken(userId: "alice", accessToken: alice.token), token: nil) == .invalidAccessToken)
        // The session it opened is closed with it.
        #expect(world.errorCode(.listConversations(cursor: nil, limit: 1), token: tokens.accessToken) == .invalidToken)
        #expect(world.backend.sessions(userId: "alice").isEmpty)
        #expect(throws: WireError.self) { try world.backend.revokeCredential(apiKey: TestWorld.apiKey, token: "nope") }
    }

    @Test func tokenRevokeRevokesTheAppIssuedAccessToken() throws {
        let world = try TestWorld()
        let credential = try world.backend.issueAccessToken(apiKey: TestWorld.apiKey, userId: "alice")
        world.backend.revokeTokens(userId: "alice")
        #expect(world.errorCode(.connectAccessToken(userId: "alice", accessToken: credential.token), token: nil) == .invalidAccessToken)
    }

    @Test func aSessionTokenExpiresAndSoDoTheTokensItGave() throws {
        let world = try TestWorld()
        try world.backend.updateSetting(apiKey: TestWorld.apiKey, key: "sessionTokenTTL", value: "10m")
        let credential = try world.backend.issueSessionToken(apiKey: TestWorld.apiKey, userId: "alice")
        #expect(credential.expiresAt == world.clock.now + .seconds(600))
        let (tokens, user, _) = try world.signIn(.connectSessionToken(userId: "alice", sessionToken: credential.token))
        #expect(user.authenticationType == .session)
        #expect(tokens.accessExpiresAt == credential.expiresAt && tokens.refreshExpiresAt == credential.expiresAt)
        world.clock.advance(.seconds(300))
        guard case .tokens(let renewed) = try world.handle(.refresh(refreshToken: tokens.refreshToken), token: nil).get() else {
            Issue.record("expected tokens")
            return
        }
        #expect(renewed.accessExpiresAt == credential.expiresAt)
        world.clock.advance(.seconds(300))
        #expect(world.errorCode(.listConversations(cursor: nil, limit: 1), token: renewed.accessToken) == .expiredToken)
        #expect(world.errorCode(.refresh(refreshToken: renewed.refreshToken), token: nil) == .expiredSessionToken)
        #expect(world.errorCode(.connectSessionToken(userId: "alice", sessionToken: credential.token), token: nil) == .expiredSessionToken)
        // A new session token from the app (the SessionDelegate's job) opens a new session.
        let fresh = try world.backend.issueSessionToken(apiKey: TestWorld.apiKey, userId: "alice", ttl: .seconds(60))
        #expect(fresh.expiresAt == world.clock.now + .seconds(60))
        #expect((try? world.signIn(.connectSessionToken(userId: "alice", sessionToken: fresh.token))) != nil)
    }

    @Test func aWrongSessionTokenIsInvalid() throws {
        let world = try TestWorld()
        let credential = try world.backend.issueSessionToken(apiKey: TestWorld.apiKey, userId: "alice")
        #expect(world.errorCode(.connectSessionToken(userId: "bob", sessionToken: credential.token), token: nil) == .invalidSessionToken)
        #expect(world.errorCode(.connectSessionToken(userId: "alice", sessionToken: "st-bogus"), token: nil) == .invalidSessionToken)
        try world.backend.revokeCredential(apiKey: TestWorld.apiKey, token: credential.token)
        #expect(world.errorCode(.connectSessionToken(userId: "alice", sessionToken: credential.token), token: nil) == .invalidSessionToken)
    }

    @Test func badUserIdsAreBadRequests() throws {
        let world = try TestWorld()
        #expect(world.errorCode(.connectUserId(userId: ""), token: nil) == .badRequest)
        #expect(world.errorCode(.connectUserId(userId: String(repeating: "x", count: 300)), token: nil) == .badRequest)
        #expect(world.errorCode(.connectAccessToken(userId: "a\u{0}", accessToken: "x"), token: nil) == .badRequest)
    }

    // MARK: Settings

    @Test func settingsReadAndWriteAsStrings() throws {
        let world = try TestWorld()
        let described = world.backend.settingsDescription(apiKey: TestWorld.apiKey)
        #expect(described.map(\.0) == AppSettings.keys)
        #expect(
            described.map { "\($0)=\($1)" } == [
                "allowUserIdOnly=true", "requireAccessToken=false", "accessTokenTTL=1h", "refreshTokenTTL=720h", "sessionTokenTTL=1h",
                "typingTTL=6s", "maxAttachmentBytes=26214400",
                "allowedMimeTypes=image/jpeg,image/png,image/gif,video/mp4,application/pdf,audio/mpeg,audio/mp4",
            ])
        try world.backend.updateSetting(apiKey: TestWorld.apiKey, key: "accessTokenTTL", value: "90s")
        try world.backend.updateSetting(apiKey: TestWorld.apiKey, key: "typingTTL", value: "1500ms")
        try world.backend.updateSetting(apiKey: TestWorld.apiKey, key: "maxAttachmentBytes", value: "1000")
        try world.backend.updateSetting(apiKey: TestWorld.apiKey, key: "allowedMimeTypes", value: "image/png, text/plain")
        let settings = try world.backend.settings(apiKey: TestWorld.apiKey)
        #expect(settings.accessTokenTTL == .seconds(90) && settings.typingTTL == .milliseconds(1500))
        #expect(settings.maxAttachmentBytes == 1000 && settings.allowedMimeTypes == ["image/png", "text/plain"])
        #expect(world.backend.settingsDescription(apiKey: TestWorld.apiKey)[2] == ("accessTokenTTL", "90s"))
        #expect(world.backend.settingsDescription(apiKey: "nope").isEmpty)
    }

    @Test func badSettingsAreRefusedClearly() throws {
        let world = try TestWorld()
        #expect(
            throws: WireError(
                .badRequest, #"Unknown setting "allowUserIDOnly"; the settings are "# + AppSettings.keys.joined(separator: ", "))
        ) {
            try world.backend.updateSetting(apiKey: TestWorld.apiKey, key: "allowUserIDOnly", value: "true")
        }
        #expect(throws: WireError(.badRequest, #"Bad value "maybe" for setting allowUserIdOnly: expected true or false"#)) {
            try world.backend.updateSetting(apiKey: TestWorld.apiKey, key: "allowUserIdOnly", value: "maybe")
        }
        for (key, value) in [
            ("accessTokenTTL", "10"), ("accessTokenTTL", "-5s"), ("accessTokenTTL", "s"), ("sessionTokenTTL", "9999999999999999999h"),
            ("maxAttachmentBytes", "-1"), ("maxAttachmentBytes", "5MB"), ("allowedMimeTypes", ""), ("allowedMimeTypes", "png"),
            // What docs/openapi.json's patterns refuse, the backend refuses too (issue 13):
            ("typingTTL", "+5s"), ("typingTTL", "1234567890s"), ("maxAttachmentBytes", "+5"),
            ("maxAttachmentBytes", "1234567890123456789"), ("allowedMimeTypes", "image/png,"),
            ("allowedMimeTypes", "image/png,\timage/jpeg"), ("allowedMimeTypes", "image/\u{1}"),
        ] {
            #expect(throws: WireError.self, "\(key)=\(value)") {
                try world.backend.updateSetting(apiKey: TestWorld.apiKey, key: key, value: value)
            }
        }
        #expect(throws: WireError(.invalidApiKey)) { try world.backend.updateSetting(apiKey: "nope", key: "typingTTL", value: "1s") }
        #expect(try world.backend.settings(apiKey: TestWorld.apiKey) == AppSettings(), "nothing changed")
    }

    // MARK: Profile (A13, A14)

    @Test func updateUserChangesOnlyTheCaller() throws {
        let world = try TestWorld()
        let (alice, _, _) = try world.signIn(.connectUserId(userId: "alice"))
        _ = try world.signIn(.connectUserId(userId: "bob"))
        let response = try world.handle(
            .updateUser(nickname: "Al", profileURL: "https://example.com/a.png", attributes: ["plan": "gold", "lang": "fr"]),
            token: alice.accessToken
        ).get()
        guard case .user(let user) = response else {
            Issue.record("expected a user")
            return
        }
        #expect(
            user.nickname == "Al" && user.profileURL == "https://example.com/a.png" && user.attributes == ["plan": "gold", "lang": "fr"])
        guard
            case .user(let again) = try world.handle(
                .updateUser(nickname: nil, profileURL: "", attributes: ["lang": "", "tier": "1"]),
                token: alice.accessToken
            ).get()
        else {
            Issue.record("expected a user")
            return
        }
        #expect(again.nickname == "Al" && again.profileURL == nil && again.attributes == ["plan": "gold", "tier": "1"])
        #expect(world.backend.users().first { $0.id == "bob" }?.attributes == [:])
        #expect(
            world.errorCode(.updateUser(nickname: nil, profileURL: "javascript:alert(1)", attributes: nil), token: alice.accessToken)
                == .badRequest)
        #expect(world.errorCode(.updateUser(nickname: "a\u{7}", profileURL: nil, attributes: nil), token: alice.accessToken) == .badRequest)
        #expect(
            world.errorCode(.updateUser(nickname: nil, profileURL: nil, attributes: ["": "x"]), token: alice.accessToken) == .badRequest)
        #expect(world.errorCode(.updateUser(nickname: "x", profileURL: nil, attributes: nil), token: nil) == .invalidToken)
    }

    /// `replaceAttributes` replaces the user's attributes instead of merging
    /// into them; with none given the user has none left (updateData(nil)).
    @Test func replacingAttributesClearsThoseNotGiven() throws {
        let world = try TestWorld()
        let (alice, _, _) = try world.signIn(.connectUserId(userId: "alice"))
        func attributes(_ request: WireRequest) throws -> [String: String]? {
            guard case .user(let user) = try world.handle(request, token: alice.accessToken).get() else { return nil }
            return user.attributes
        }
        #expect(
            try attributes(.updateUser(nickname: nil, profileURL: nil, attributes: ["plan": "gold", "lang": "fr"])) == [
                "plan": "gold", "lang": "fr",
            ])
        #expect(
            try attributes(.updateUser(nickname: nil, profileURL: nil, attributes: ["tier": "1"], replaceAttributes: true)) == ["tier": "1"]
        )
        #expect(try attributes(.updateUser(nickname: nil, profileURL: nil, attributes: nil, replaceAttributes: false)) == ["tier": "1"])
        #expect(try attributes(.updateUser(nickname: nil, profileURL: nil, attributes: nil, replaceAttributes: true)) == [:])
        #expect(
            world.errorCode(
                .updateUser(nickname: nil, profileURL: nil, attributes: ["": "x"], replaceAttributes: true), token: alice.accessToken)
                == .badRequest)
    }

    @Test func profileImagesMustBeSmallJPEGsOrPNGs() throws {
        let world = try TestWorld()
        let (alice, _, _) = try world.signIn(.connectUserId(userId: "alice"))
        guard
            case .user(let user) = try world.handle(.uploadProfileImage(mimeType: "image/png", size: 1000), token: alice.accessToken).get()
        else {
            Issue.record("expected a user")
            return
        }
        #expect(
            user.profileURL?.hasPrefix("https://media.chatbench.invalid/profile/") == true && user.profileURL?.hasSuffix(".png") == true)
        #expect(
            (try? world.handle(.uploadProfileImage(mimeType: "IMAGE/JPEG", size: WireLimits.maxProfileImageBytes), token: alice.accessToken)
                .get()) != nil)
        #expect(
            world.errorCode(
                .uploadProfileImage(mimeType: "image/jpeg", size: WireLimits.maxProfileImageBytes + 1), token: alice.accessToken)
                == .attachmentTooLarge)
        #expect(world.errorCode(.uploadProfileImage(mimeType: "image/gif", size: 10), token: alice.accessToken) == .unsupportedMediaType)
        #expect(
            world.errorCode(.uploadProfileImage(mimeType: "application/pdf", size: 10), token: alice.accessToken) == .unsupportedMediaType)
        #expect(world.errorCode(.uploadProfileImage(mimeType: "image/png", size: 0), token: alice.accessToken) == .badRequest)
        #expect(world.errorCode(.uploadProfileImage(mimeType: "image/png", size: -1), token: alice.accessToken) == .badRequest)
    }

    // MARK: Isolation

    @Test func aTokenOfOneUserNeverReadsAnothersData() throws {
        let world = try TestWorld()
        let (alice, _, _) = try world.signIn(.loginJWT(jwt: world.jwt("alice")))
        let (bob, _, _) = try world.signIn(.loginJWT(jwt: world.jwt("bob")), device: "device-2")
        try world.send("bob's secret", id: "m1", in: "c-bob", token: bob.accessToken)
        #expect(try world.conversationPage(token: alice.accessToken, limit: 10).elements.isEmpty)
        #expect(world.errorCode(.getConversation(id: "c-bob"), token: alice.accessToken) == .forbidden)
        #expect(world.errorCode(.listMessages(conversationId: "c-bob", cursor: nil, limit: 10), token: alice.accessToken) == .forbidden)
        #expect(world.errorCode(.messagesSince(conversationId: "c-bob", afterSeq: 0, limit: 10), token: alice.accessToken) == .forbidden)
        #expect(
            world.errorCode(
                .sendMessage(
                    conversationId: "c-bob", createConversation: nil,
                    message: NewMessage(id: "m2", content: .text("x"), replyTo: nil)), token: alice.accessToken) == .forbidden)
        // Asking to create it gives Alice her own conversation: Bob's is untouched.
        let (hers, _) = try world.send("x", id: "m2", in: "c-bob", token: alice.accessToken)
        #expect(hers.id != "c-bob")
        #expect(try world.backend.messages(conversationId: "c-bob").map(\.id) == ["m1"])
        guard case .user(let me) = try world.handle(.getCurrentUser, token: alice.accessToken).get() else {
            Issue.record("no user")
            return
        }
        #expect(me.id == "alice")
        // Logging out with alice's token touches only alice.
        _ = try world.handle(.logout, token: alice.accessToken).get()
        #expect(world.backend.sessions(userId: "bob").count == 1)
        #expect((try? world.conversationPage(token: bob.accessToken, limit: 10)) != nil)
        // A JWT login never merges a non-anonymous user, even with their token.
        let (_, _, merged) = try world.signIn(.loginJWT(jwt: world.jwt("mallory")), token: bob.accessToken)
        #expect(merged.isEmpty && world.backend.owner(ofConversation: "c-bob") == "bob")
    }

    @Test func newWireValuesRoundTripThroughJSON() throws {
        let values: [WireRequest] = [
            .loginJWT(jwt: "a.b.c"), .loginAnonymous, .connectUserId(userId: "u"), .connectAccessToken(userId: "u", accessToken: "t"),
            .connectSessionToken(userId: "u", sessionToken: "s"), .logout, .registerDevice(pushToken: "p"), .unregisterDevice,
            .getCurrentUser,
            .updateUser(nickname: "n", profileURL: nil, attributes: ["k": "v"]), .uploadProfileImage(mimeType: "image/png", size: 1),
        ]
        for value in values {
            #expect(try JSONDecoder().decode(WireRequest.self, from: JSONEncoder().encode(value)) == value)
        }
        let user = WireUser(id: "u", isAnonymous: true, authenticationType: .anonymous)
        let response = WireResponse.session(
            tokens: TokenPair(
                accessToken: "a", accessExpiresAt: .simulationEpoch, refreshToken: "r",
                refreshExpiresAt: .simulationEpoch), user: user, mergedConversationIds: ["c"])
        #expect(try JSONDecoder().decode(WireResponse.self, from: JSONEncoder().encode(response)) == response)
        #expect(String(decoding: try JSONEncoder().encode(WireUser.AuthenticationType.userId), as: UTF8.self) == #""userId""#)
        #expect(WireError(.expiredJWT).message == "The JWT has expired")
    }
}
