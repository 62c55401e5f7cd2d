import ChatCore
import Foundation
import Testing

@testable import ChatBackend

/// Identity verification (A12): a user id signed by the app's backend.
@Suite struct UserSignatureTests {
    @Test func theSignatureIsTheHexHMACSHA256OfTheUserIdUnderTheAppSecret() {
        // RFC 4231-style known answer: HMAC-SHA256(key "key", "The quick brown fox jumps over the lazy dog").
        let signature = UserSignature.sign(userId: "The quick brown fox jumps over the lazy dog", secret: "key")
        #expect(signature == "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8")
        #expect(UserSignature.isValid(signature, userId: "The quick brown fox jumps over the lazy dog", secret: "key"))
        #expect(UserSignature.isValid(signature.uppercased(), userId: "The quick brown fox jumps over the lazy dog", secret: "key"))
    }

    @Test func anotherUserSecretOrMalformedSignatureIsNotValid() {
        let signature = UserSignature.sign(userId: "alice", secret: "s3cret")
        #expect(!UserSignature.isValid(signature, userId: "bob", secret: "s3cret"))
        #expect(!UserSignature.isValid(signature, userId: "alice", secret: "other"))
        for malformed in ["", "abc", String(signature.dropLast()), String(signature.dropLast(2)), "zz" + signature.dropFirst(2)] {
            #expect(!UserSignature.isValid(malformed, userId: "alice", secret: "s3cret"), "\(malformed)")
        }
    }

    @Test func aSignedUserIdConnectsWhereUserIdsAloneAreNotAllowed() throws {
        let world = try TestWorld()
        try world.backend.updateSetting(apiKey: TestWorld.apiKey, key: "allowUserIdOnly", value: "false")
        let signature = try world.backend.userSignature(apiKey: TestWorld.apiKey, userId: "alice")
        let (_, user, _) = try world.signIn(.connectUserId(userId: "alice", signature: signature))
        #expect(user.id == "alice" && user.authenticationType == .userId)
        #expect(world.errorCode(.connectUserId(userId: "bob", signature: signature), token: nil) == .invalidSignature)
        #expect(world.errorCode(.connectUserId(userId: "bob"), token: nil) == .userIdOnlyNotAllowed)
        #expect(!world.backend.users().contains { $0.id == "bob" })
    }

    @Test func aWrongSignatureIsRefusedEvenWhereUserIdsAloneAreAllowed() throws {
        let world = try TestWorld()
        let bobs = try world.backend.userSignature(apiKey: TestWorld.apiKey, userId: "bob")
        #expect(world.errorCode(.connectUserId(userId: "alice", signature: bobs), token: nil) == .invalidSignature)
        #expect(!world.backend.users().contains { $0.id == "alice" })
    }

    @Test func aSignatureDoesNotReplaceARequiredAccessToken() throws {
        let world = try TestWorld()
        try world.backend.updateSetting(apiKey: TestWorld.apiKey, key: "requireAccessToken", value: "true")
        let signature = try world.backend.userSignature(apiKey: TestWorld.apiKey, userId: "alice")
        #expect(world.errorCode(.connectUserId(userId: "alice", signature: signature), token: nil) == .accessTokenRequired)
        let credential = try world.backend.issueAccessToken(apiKey: TestWorld.apiKey, userId: "alice")
        let (_, user, _) = try world.signIn(
            .connectAccessToken(userId: "alice", accessToken: credential.token, signature: signature))
        #expect(user.authenticationType == .access)
        let bobs = try world.backend.userSignature(apiKey: TestWorld.apiKey, userId: "bob")
        #expect(
            world.errorCode(.connectAccessToken(userId: "alice", accessToken: credential.token, signature: bobs), token: nil)
                == .invalidSignature)
    }
}
