import ChatCore
import Foundation
import JWTKit
import Testing

@testable import ChatBackend

/// JWT login (A5, A6): acceptance and every refusal.
@Suite struct IdentityJWTTests {
    static let secret = "test-secret"
    let world: TestWorld

    init() throws { world = try TestWorld() }

    var now: Date { world.clock.now.date }

    func jwt(
        _ externalId: String? = "alice", exp: Date? = nil, iat: Date? = nil, name: String? = nil, email: String? = nil,
        secret: String = IdentityJWTTests.secret
    ) -> String {
        AppJWT.sign(
            .init(externalId: externalId, name: name, email: email, exp: exp ?? now.addingTimeInterval(600), iat: iat), secret: secret)
    }

    func login(_ jwt: String, token: String? = nil) -> Result<WireResponse, WireError> {
        world.handle(.loginJWT(jwt: jwt), token: token)
    }

    func error(_ jwt: String) -> WireError? {
        if case .failure(let error) = login(jwt) { return error }
        return nil
    }

    @Test func aValidJWTSignsInAndCreatesTheUser() throws {
        let response = try login(jwt("alice", name: "Alice", email: "alice@example.com")).get()
        guard case .session(let tokens, let user, let merged) = response else {
            Issue.record("expected a session: \(response)")
            return
        }
        #expect(user == WireUser(id: "alice", isAnonymous: false, authenticationType: .jwt, name: "Alice", email: "alice@example.com"))
        #expect(merged.isEmpty)
        #expect(try world.conversationPage(token: tokens.accessToken, limit: 5).elements.isEmpty)
        guard case .user(let current) = try world.handle(.getCurrentUser, token: tokens.accessToken).get() else {
            Issue.record("expected a user")
            return
        }
        #expect(current.authenticationType == .jwt && current.id == "alice")
        #expect(world.backend.users().first { $0.id == "alice" }?.email == "alice@example.com")
        // The tokens refresh like any other pair.
        #expect((try? world.handle(.refresh(refreshToken: tokens.refreshToken), token: nil).get()) != nil)
    }

    @Test func theSessionOfAJWTEndsWithTheJWT() throws {
        // A6: a JWT valid for one minute gives tokens that expire with it,
        // not an hour later; the refresh token too.
        let exp = world.clock.now + .seconds(60)
        let response = try login(jwt("alice", exp: exp.date)).get()
        guard case .session(let tokens, _, _) = response else {
            Issue.record("expected a session: \(response)")
            return
        }
        #expect(tokens.accessExpiresAt == exp)
        #expect(tokens.refreshExpiresAt == exp)
        world.clock.advance(.seconds(61))
        #expect(world.errorCode(.getCurrentUser, token: tokens.accessToken) == .expiredToken)
        #expect(world.errorCode(.refresh(refreshToken: tokens.refreshToken), token: nil) == .expiredRefreshToken)
        #expect(error(jwt("alice", exp: exp.date))?.code == .expiredJWT)
        // A JWT that lives longer than the app's access-token lifetime does
        // not lengthen the access token.
        let long = try login(jwt("alice", exp: (world.clock.now + .seconds(7200)).date)).get()
        guard case .session(let longTokens, _, _) = long else {
            Issue.record("expected a session: \(long)")
            return
        }
        #expect(longTokens.accessExpiresAt == world.clock.now + .seconds(3600))
    }

    @Test func aJWTSignedByJWTKitIsAccepted() async throws {
        // jwt-kit asserts (debug builds) that an HMAC key has at least 32 bytes.
        let secret = "a-secret-of-at-least-32-bytes-0123456789"
        try world.backend.createApp(apiKey: "kit-key", jwtSecret: secret)
        let keys = await JWTKeyCollection().add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        let claims = AppJWT.Claims(externalId: "kit-user", name: "Kit", exp: now.addingTimeInterval(60), iat: now)
        let token = try await keys.sign(claims)
        let result = world.handle(.loginJWT(jwt: token), token: nil, apiKey: "kit-key")
        guard case .success(.session(_, let user, _)) = result else {
            Issue.record("expected a session: \(result)")
            return
        }
        #expect(user.id == "kit-user" && user.name == "Kit")
        // And the backend's own signer makes tokens jwt-kit verifies.
        let ours = AppJWT.sign(AppJWT.Claims(externalId: "x", exp: Date(timeIntervalSince1970: 4_102_444_800)), secret: secret)
        let verified = try await keys.verify(ours, as: AppJWT.Claims.self)
        #expect(verified.externalId == "x")
    }

    @Test func aJWTMadeByPyJWTIsAccepted() throws {
        try world.backend.createApp(apiKey: "py-key", jwtSecret: PyJWTFixture.secret)
        let result = world.handle(.loginJWT(jwt: PyJWTFixture.valid), token: nil, apiKey: "py-key")
        guard case .success(.session(_, let user, _)) = result else {
            Issue.record("expected a session: \(result)")
            return
        }
        #expect(user == WireUser(id: "pyjwt-user", isAnonymous: false, authenticationType: .jwt, name: "Py Jwt", email: "py@example.com"))
        #expect(world.errorCode(.loginJWT(jwt: PyJWTFixture.expired), token: nil, apiKey: "py-key") == .expiredJWT)
        // The same token under another app's secret is refused.
        #expect(error(PyJWTFixture.valid)?.code == .invalidJWT)
    }

    @Test func anExpiredJWTIsRefusedWithTheExactMessage() throws {
        let error = error(jwt(exp: now.addingTimeInterval(-1)))
        #expect(error == WireError(.expiredJWT, "The JWT has expired"))
        // exp == now is expired too; a JWT that expires later stops working then.
        #expect(self.error(jwt(exp: now))?.code == .expiredJWT)
        let token = jwt(exp: now.addingTimeInterval(30))
        #expect((try? login(token).get()) != nil)
        world.clock.advance(.seconds(30))
        #expect(self.error(token) == WireError(.expiredJWT, "The JWT has expired"))
    }

    @Test func aBadSignatureIsRefused() {
        #expect(error(jwt(secret: "another-secret")) == WireError(.invalidJWT, "The JWT's signature does not match the app's secret"))
    }

    @Test func aTamperedPayloadIsRefused() throws {
        let parts = jwt("alice").split(separator: ".").map(String.init)
        let forged = Data(#"{"external_id":"mallory","exp":4102444800}"#.utf8).base64URLEncodedString()
        #expect(error("\(parts[0]).\(forged).\(parts[2])")?.code == .invalidJWT)
        // A flipped character in the signature, too.
        var signature = Array(parts[2])
        signature[3] = signature[3] == "A" ? "B" : "A"
        #expect(error("\(parts[0]).\(parts[1]).\(String(signature))")?.code == .invalidJWT)
        #expect(!world.backend.users().contains { $0.id == "mallory" })
    }

    @Test func algNoneIsRefused() {
        let header = Data(#"{"alg":"none","typ":"JWT"}"#.utf8).base64URLEncodedString()
        let payload = Data(#"{"external_id":"mallory","exp":4102444800}"#.utf8).base64URLEncodedString()
        #expect(error("\(header).\(payload).") == WireError(.invalidJWT, #"The JWT must be signed with HS256, not "none""#))
        // Even with a signature that is a valid HMAC of the input.
        let signed = AppJWT.sign(
            header: Data(#"{"alg":"none"}"#.utf8), payload: Data(#"{"external_id":"mallory","exp":4102444800}"#.utf8), secret: Self.secret)
        #expect(error(signed)?.code == .invalidJWT)
        // And with no alg at all.
        let noAlg = AppJWT.sign(
            header: Data(#"{"typ":"JWT"}"#.utf8), payload: Data(#"{"external_id":"m","exp":4102444800}"#.utf8), secret: Self.secret)
        #expect(error(noAlg) == WireError(.invalidJWT, "The JWT must be signed with HS256, not no algorithm"))
    }

    @Test(arguments: ["RS256", "HS384", "HS512", "ES256", "hs256"])
    func otherAlgorithmsAreRefusedEvenWithAValidHMAC(alg: String) {
        // The classic confusion attack: an asymmetric alg in the header, an
        // HMAC made with the shared secret as signature.
        let token = AppJWT.sign(
            header: Data(#"{"alg":"\#(alg)","typ":"JWT"}"#.utf8),
            payload: Data(#"{"external_id":"mallory","exp":4102444800}"#.utf8), secret: Self.secret)
        #expect(error(token) == WireError(.invalidJWT, "The JWT must be signed with HS256, not \"\(alg)\""))
    }

    @Test func malformedAndTruncatedJWTsAreRefused() {
        let good = jwt("alice")
        let parts = good.split(separator: ".").map(String.init)
        let cases = [
            "", ".", "..", "a.b", "a.b.c.d", "not a jwt", parts[0], "\(parts[0]).\(parts[1])",
            String(good.dropLast(10)), String(good.prefix(good.count / 2)), "\(parts[0]).!!!.\(parts[2])",
            "\(parts[0])..\(parts[2])", ".\(parts[1]).\(parts[2])", String(repeating: "a", count: 9000),
            "\(Data("{".utf8).base64URLEncodedString()).\(parts[1]).\(parts[2])", good + "\u{0}",
        ]
        for token in cases {
            let error = error(token)
            #expect(error?.code == .invalidJWT, "\(token.prefix(40))")
            #expect(error.map { !$0.message.contains(parts[1]) } ?? true, "messages never echo the token")
        }
        #expect(world.backend.users().isEmpty)
    }

    @Test func missingOrBadClaimsAreRefused() {
        let noExternalId = AppJWT.sign(
            header: Data(#"{"alg":"HS256"}"#.utf8), payload: Data(#"{"exp":4102444800}"#.utf8), secret: Self.secret)
        #expect(error(noExternalId) == WireError(.invalidJWT, "The JWT has no external_id claim"))
        let noExp = AppJWT.sign(
            header: Data(#"{"alg":"HS256"}"#.utf8), payload: Data(#"{"external_id":"alice"}"#.utf8), secret: Self.secret)
        #expect(error(noExp) == WireError(.invalidJWT, "The JWT has no exp claim"))
        let numericId = AppJWT.sign(
            header: Data(#"{"alg":"HS256"}"#.utf8), payload: Data(#"{"external_id":42,"exp":4102444800}"#.utf8), secret: Self.secret)
        #expect(error(numericId)?.code == .invalidJWT)
        let textExp = AppJWT.sign(
            header: Data(#"{"alg":"HS256"}"#.utf8), payload: Data(#"{"external_id":"a","exp":"soon"}"#.utf8), secret: Self.secret)
        #expect(error(textExp)?.code == .invalidJWT)
        let emptyId = AppJWT.sign(
            header: Data(#"{"alg":"HS256"}"#.utf8), payload: Data(#"{"external_id":"","exp":4102444800}"#.utf8), secret: Self.secret)
        #expect(error(emptyId)?.code == .invalidJWT)
        let notJSON = AppJWT.sign(header: Data(#"{"alg":"HS256"}"#.utf8), payload: Data("[1,2]".utf8), secret: Self.secret)
        #expect(error(notJSON)?.code == .invalidJWT)
    }

    @Test func aFutureIatIsRefusedBeyondTheSkew() {
        #expect(error(jwt(iat: now.addingTimeInterval(3600))) == WireError(.invalidJWT, "The JWT was issued in the future (iat)"))
        #expect((try? login(jwt(iat: now.addingTimeInterval(30))).get()) != nil, "within the 60 s skew")
        #expect((try? login(jwt(iat: now.addingTimeInterval(-3600))).get()) != nil)
    }

    @Test func anUnknownApiKeyIsRefusedFirst() {
        #expect(world.errorCode(.loginJWT(jwt: jwt()), token: nil, apiKey: "nope") == .invalidApiKey)
    }

    @Test func aJWTForAMergedUserIsRefused() throws {
        guard case .session(let anon, let anonUser, _) = try world.handle(.loginAnonymous, token: nil).get() else {
            Issue.record("no session")
            return
        }
        try world.send("hi", id: "m1", in: "c1", token: anon.accessToken)
        _ = try login(jwt("alice"), token: anon.accessToken).get()
        #expect(error(jwt(anonUser.id)) == WireError(.forbidden, "The user was merged into another user"))
    }
}
