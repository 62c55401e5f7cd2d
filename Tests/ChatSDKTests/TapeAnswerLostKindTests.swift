import ChatCore
import Foundation
import Testing

@testable import ChatSDK

/// A lost answer keeps the transport failure's kind typed (issue 30), coded
/// as its raw value as before (`"kind": "timeout"`); a tape recorded before
/// kinds has none, and `offline` says it then.
@Suite struct TapeAnswerLostKindTests {
    @Test(arguments: [
        TransportError.Kind.offline, .refused, .reset, .timeout, .unavailable, .rateLimited, .failed,
    ])
    func theKindGoesOnTheTapeAndComesBack(_ kind: TransportError.Kind) throws {
        let answer = TapeAnswer(error: TransportError(kind, "lost"))
        #expect(answer.lost?.kind == kind)
        let body = try #require(TapeCoding.encode(answer))
        let offline = kind == .offline ? "true" : "false"
        #expect(String(decoding: body, as: UTF8.self) == #"{"lost":{"kind":"\#(kind.rawValue)","message":"lost","offline":\#(offline)}}"#)
        let read = try #require(TapeCoding.decode(TapeAnswer.self, from: body))
        #expect(read == answer)
        #expect(throws: TransportError(kind, "lost")) { try read.result() }
    }

    @Test func aTapeFromBeforeKindsSaysOfflineOrFailed() throws {
        let offline = try #require(TapeCoding.decode(TapeAnswer.self, from: Data(#"{"lost":{"message":"m","offline":true}}"#.utf8)))
        #expect(offline.lost?.kind == nil)
        #expect(throws: TransportError(.offline, "m")) { try offline.result() }
        let other = try #require(TapeCoding.decode(TapeAnswer.self, from: Data(#"{"lost":{"message":"m","offline":false}}"#.utf8)))
        #expect(throws: TransportError(.failed, "m")) { try other.result() }
    }

    /// A kind a newer build knows is still read, and thrown as it is.
    @Test func anUnknownKindIsKept() throws {
        let body = Data(#"{"lost":{"kind":"tooFast","message":"m","offline":false}}"#.utf8)
        let read = try #require(TapeCoding.decode(TapeAnswer.self, from: body))
        #expect(read.lost?.kind == TransportError.Kind(rawValue: "tooFast"))
        #expect(TapeCoding.encode(read) == body)
    }
}
