import ChatCore
import ChatSDK
import Foundation
import Testing

/// The SDK's public model and the wire format meet in one file; each
/// conversion is exact both ways, so that nothing a transcript shows moves.
@Suite struct WireMappingTests {
    @Test func anInstantSurvivesADateToTheMillisecond() {
        let epoch = Instant.simulationEpoch.milliseconds
        var samples: [Int64] = [0, 1, -1, 999, -999, epoch, epoch + 1, epoch + 999, 253_402_300_799_999, -12_212_553_600_000]
        var generator = SeededRandom(seed: 14)
        for _ in 0..<10_000 { samples.append(Int64(generator.next() % 400_000_000_000_000) - 100_000_000_000_000) }
        for milliseconds in samples {
            let instant = Instant(milliseconds: milliseconds)
            #expect(Instant(Date(instant)) == instant, "\(milliseconds)")
        }
        #expect(Date(Instant(milliseconds: 1_500)) == Date(timeIntervalSince1970: 1.5))
        #expect(Instant(Date(timeIntervalSince1970: 1.2346)) == Instant(milliseconds: 1_235))
        #expect(Instant(Date.distantFuture) > Instant.simulationEpoch)
    }

    @Test func contentAndAuthorKeepEveryCase() {
        let contents: [WireContent] =
            [.text("hello"), .text("")]
            + WireContent.AttachmentKind.allCases.map { .attachment(kind: $0, mimeType: "x/y", size: 3, fileName: nil) }
            + [.attachment(kind: .image, mimeType: "image/png", size: 1, fileName: "a.png")]
        for wire in contents {
            #expect(WireContent(MessageContent(wire)) == wire)
        }
        #expect(MessageContent.AttachmentKind.allCases.map(\.rawValue) == WireContent.AttachmentKind.allCases.map(\.rawValue))
        #expect(MessageAuthor(WireAuthor.user(id: "alice")) == .user(id: "alice"))
        #expect(MessageAuthor(WireAuthor.provider(name: "agent")) == .provider(name: "agent"))
        #expect(MessageAuthor(WireAuthor.system) == .system)
    }

    @Test func tokensKeepTheirExpiries() {
        let pair = TokenPair(
            accessToken: "access-1", accessExpiresAt: .simulationEpoch + .milliseconds(3_600_001), refreshToken: "refresh-1",
            refreshExpiresAt: .simulationEpoch + .seconds(86_400))
        let tokens = ChatTokens(pair)
        #expect(tokens.accessExpiresAt == Date(timeIntervalSince1970: 1_767_229_200.001))
        #expect(TokenPair(tokens) == pair)
    }
}
