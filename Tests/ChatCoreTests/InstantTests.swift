import Testing

@testable import ChatCore

/// `Instant.description` computes the date by arithmetic in its usual range;
/// it must say exactly what Foundation's Gregorian calendar says.
@Suite struct InstantTests {
    @Test func descriptionMatchesTheCalendar() {
        var instants: [Int64] = [
            0, -1, 1, 999, 1000, 86_399_999, 86_400_000, -86_400_000, -86_400_001,
            Instant.simulationEpoch.milliseconds, Instant.simulationEpoch.milliseconds + 365 * 86_400_000 + 1,
            951_782_400_000, // 2000-02-29
            4_107_542_400_000, // 2100-03-01
            Instant.fastRange.lowerBound, Instant.fastRange.lowerBound - 1,
            Instant.fastRange.upperBound - 1, Instant.fastRange.upperBound,
        ]
        // Spread over the whole fast range, with odd milliseconds.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let span = UInt64(Instant.fastRange.upperBound - Instant.fastRange.lowerBound)
        for _ in 0..<2000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            instants.append(Instant.fastRange.lowerBound + Int64((state >> 11) % span))
        }
        for milliseconds in instants {
            #expect(Instant(milliseconds: milliseconds).description == Instant.calendarISO8601(milliseconds), "\(milliseconds)")
        }
        #expect(Instant.simulationEpoch.description == "2026-01-01T00:00:00.000Z")
    }
}
