import Crypto
import Foundation
import Testing

@testable import ChatSDK

/// The SDK's own SHA-256 (the flight recorder's redaction): FIPS 180-4's
/// examples, and swift-crypto's digest for every length across the block
/// and padding boundaries.
@Suite struct SHA256Tests {
    func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test func theStandardsExamples() {
        #expect(hex(ChatSDK.SHA256.hash([UInt8]())) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex(ChatSDK.SHA256.hash("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            hex(ChatSDK.SHA256.hash("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func swiftCryptoAgreesOnEveryLengthUpTo300() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...300 {
            let bytes = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            #expect(ChatSDK.SHA256.hash(bytes) == Array(Crypto.SHA256.hash(data: Data(bytes))), "length \(length)")
        }
    }
}
