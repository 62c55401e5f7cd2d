import ChatCore
import Foundation
import Testing

@testable import ChatBackend

/// Garbage in the identity requests never crashes the backend, and a JWT
/// with any byte changed is never accepted for another user.
@Suite struct IdentityFuzzTests {
    @Test(arguments: [7, 8] as [UInt64])
    func mutatedJWTsAndGarbageSignInsAreRefusedCleanly(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let world = try TestWorld()
        let good = world.jwt("alice")
        let bytes = Array(good.utf8)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ \u{0}é".utf8)
        for _ in 0..<1_500 {
            var mutated = bytes
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: mutated[Int.random(in: 0..<mutated.count, using: &rng)] = alphabet.randomElement(using: &rng)!
            case 1: mutated.removeLast(Int.random(in: 1..<mutated.count, using: &rng))
            case 2: mutated.insert(alphabet.randomElement(using: &rng)!, at: Int.random(in: 0...mutated.count, using: &rng))
            default: mutated.swapAt(Int.random(in: 0..<mutated.count, using: &rng), Int.random(in: 0..<mutated.count, using: &rng))
            }
            let token = String(decoding: mutated, as: UTF8.self)
            switch world.handle(.loginJWT(jwt: token), token: nil) {
            case .success(.session(_, let user, _)):
                // Only an unchanged token (a no-op swap) may succeed, as alice.
                #expect(user.id == "alice")
                #expect(token == good)
            case .success(let other):
                Issue.record("unexpected \(other)")
            case .failure(let error):
                #expect([.invalidJWT, .expiredJWT].contains(error.code), "\(error)")
                #expect(token.count < 12 || !error.message.contains(token), "messages never echo the token")
            }
        }
        let garbage = ["", " ", "\u{0}", "' OR 1=1 --", String(repeating: "a", count: 3000), "🙂"]
        for _ in 0..<300 {
            let pick = { garbage.randomElement(using: &rng)! }
            let request: WireRequest =
                switch Int.random(in: 0..<6, using: &rng) {
                case 0: .connectUserId(userId: pick())
                case 1: .connectAccessToken(userId: pick(), accessToken: pick())
                case 2: .connectSessionToken(userId: pick(), sessionToken: pick())
                case 3: .updateUser(nickname: pick(), profileURL: pick(), attributes: [pick(): pick()])
                case 4: .uploadProfileImage(mimeType: pick(), size: [Int64.min, -1, 0, 1, Int64.max].randomElement(using: &rng)!)
                default: .logout
                }
            let device = Bool.random(using: &rng) ? "device-1" : pick()
            _ = world.request(request, token: Bool.random(using: &rng) ? nil : pick(), device: device)
        }
        #expect(world.backend.users().allSatisfy { Backend.isValidIdentifier($0.id) })
    }
}
