import ChatCore
import Foundation
import Testing

@testable import ChatSDK

/// Error codes are open sets (structs with static members, issue 14): a code
/// added later breaks no caller, an unknown one still decodes, and a `catch`
/// names the error it catches.
@Suite struct ErrorCodeTests {
    @Test func everyWireCodeHasAnSDKCodeOfTheSameName() {
        for wire in WireError.Code.allCases {
            #expect(ChatError.Code(wire).rawValue == wire.rawValue)
            #expect(wire.isKnown, "\(wire)")
            #expect(!wire.defaultMessage.isEmpty)
        }
        #expect(ChatError.expiredJWT == ChatError.Code(.expiredJWT))
        #expect(ChatError.Code.invalidSessionToken == ChatError.Code(.invalidSessionToken))
        #expect(Set(WireError.Code.allCases).count == WireError.Code.allCases.count)
    }

    @Test func aCatchNamesTheCodeItCatches() {
        func outcome(_ error: any Error) -> String {
            do { throw error } catch ChatError.expiredJWT { return "expired" } catch ChatError.offline { return "offline" } catch {
                return "other"
            }
        }
        #expect(outcome(ChatError(.expiredJWT, "old")) == "expired")
        #expect(outcome(ChatError(ChatError.Code(.expiredJWT), "old")) == "expired")
        #expect(outcome(ChatError(.offline, "no network")) == "offline")
        #expect(outcome(ChatError(.networkFailure, "lost")) == "other")
        #expect(outcome(WireError(.expiredJWT)) == "other", "a wire error is not an SDK error")
        #expect(outcome(CocoaError(.fileNoSuchFile)) == "other")
    }

    @Test func aCodeThisBuildDoesNotKnowStillDecodesAndSaysSo() throws {
        let json = Data(#"{"code":"tooManyRequests","message":"slow down"}"#.utf8)
        let error = try JSONDecoder().decode(WireError.self, from: json)
        #expect(error.code.rawValue == "tooManyRequests" && !error.code.isKnown)
        #expect(error.message == "slow down")
        #expect(WireError(WireError.Code(rawValue: "tooManyRequests")).message == "The server answered tooManyRequests")
        let encoded = try JSONEncoder().encode(WireError(.badRequest, "no"))
        #expect(String(decoding: encoded, as: UTF8.self).contains(#""code":"badRequest""#))
    }

    @Test func transportKindsCompareByName() {
        #expect(TransportError(.offline, "x").kind == .offline)
        #expect(TransportError.Kind(rawValue: "offline") == .offline)
        #expect(TransportError.Kind.failed.description == "failed")
    }
}
