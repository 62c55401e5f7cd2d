import ChatCore
import Foundation
import Testing

@testable import ChatSDK

/// A6: a session minted from a JWT ends with the JWT. The server caps its
/// tokens at the JWT's `exp`; the machine uses them to the end instead of
/// signing in again and again within the refresh margin, and at their end
/// signs in with the JWT, which the server refuses as expired: the
/// authentication delegate is asked.
@Suite struct SessionMachineJWTExpiryTests {
    /// An unsigned JWT whose `exp` is `seconds` after the driver's t0.
    static func jwt(expiringIn seconds: Int64) -> String {
        let exp = SessionDriver.t0.milliseconds / 1000 + seconds
        let payload = Data(#"{"external_id":"alice","exp":\#(exp)}"#.utf8).base64EncodedString()
            .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        return "eyJhbGciOiJIUzI1NiJ9.\(payload).sig"
    }

    static func session(access: Duration) -> WireResponse {
        .session(
            tokens: SessionDriver.tokens("1", access: access, refresh: access),
            user: WireUser(id: "alice", isAnonymous: false, authenticationType: .jwt), mergedConversationIds: [])
    }

    @Test func theJWTsExpiryIsReadFromItsClaims() {
        #expect(Credential.jwt(Self.jwt(expiringIn: 60)).jwtExpiry == SessionDriver.t0 + .seconds(60))
        #expect(Credential.jwt("not-a-jwt").jwtExpiry == nil)
        #expect(Credential.provider.jwtExpiry == nil)
    }

    @Test func tokensThatEndWithTheirJWTAreUsedToTheEndThenTheDelegateIsAsked() {
        let t0 = SessionDriver.t0
        let margin = SessionDriver.margin
        var driver = SessionDriver()
        let jwt = Self.jwt(expiringIn: 60)
        _ = driver.identify("alice", .jwt(jwt))
        let run = driver.start().run
        // The refresh is set at the tokens' end, not 30 s before it.
        #expect(
            driver.answer(run, .signIn(.success(Self.session(access: .seconds(60)))))
                == ["learn user alice", "state authenticated(alice, via: jwt)", "refresh at +60s", "signed in", "succeed at_1_token"])
        // Within the refresh margin the tokens are still used: no sign-in.
        #expect(
            driver.machine.tokenNeeded(forceRefresh: false, now: t0 + .seconds(45), margin: margin) == .succeed(accessToken: "at_1_token"))
        // At the end the JWT has expired: a sign-in with it, refused, asks the delegate.
        #expect(driver.machine.tokenNeeded(forceRefresh: false, now: t0 + .seconds(60), margin: margin) == nil)
        let (second, actions) = driver.start(at: t0 + .seconds(60))
        #expect(actions == ["state authenticating(alice)", "send loginJWT(jwt: \"\(jwt)\")"])
        #expect(
            driver.answer(second, .signIn(.failure(ChatError(.expiredJWT, "The JWT has expired"))), at: t0 + .seconds(60))
                == ["event authenticationFailed(expiredJWT)", "ask authentication delegate after expiredJWT"])
        // No delegate, or no new JWT: the user is signed out implicitly.
        #expect(
            driver.answer(second, .authenticationDelegate(jwt: nil), at: t0 + .seconds(60))
                == ["clear locally (expiredJWT)", "fail expiredJWT"])
    }

    @Test func tokensShorterThanTheirJWTRefreshBeforeTheyEnd() {
        var driver = SessionDriver()
        _ = driver.identify("alice", .jwt(Self.jwt(expiringIn: 7200)))
        let run = driver.start().run
        #expect(
            driver.answer(run, .signIn(.success(Self.session(access: .seconds(3600)))))
                == ["learn user alice", "state authenticated(alice, via: jwt)", "refresh at +3570s", "signed in", "succeed at_1_token"])
    }
}
