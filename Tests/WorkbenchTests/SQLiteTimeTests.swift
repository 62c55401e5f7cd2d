import ChatCore
import Foundation
import Testing

@testable import Workbench

/// The recorder's wall times, written digit by digit, are the text of the
/// padded numbers they were written as before.
@Suite struct SQLiteTimeTests {
    static func padded(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        var seconds = time_t(interval.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return SQLiteTime.paddedString(parts, milliseconds: Int((interval - Double(seconds)) * 1000))
    }

    @Test(
        arguments: [
            0, 0.001, 0.999, 0.9999, -0.5, -1, 1_767_225_600, 1_767_225_600.123, 1_767_225_600.9995, 951_782_400, 253_402_300_799.999,
            253_402_300_800, -62_167_219_200, -62_167_219_201, -30_610_224_000,
        ] as [Double])
    func digitsAreThePaddedNumbers(_ interval: Double) {
        let date = Date(timeIntervalSince1970: interval)
        #expect(SQLiteTime.string(from: date) == Self.padded(date))
    }

    @Test func randomTimesAreThePaddedNumbers() {
        var random = SeededRandom(seed: 17)
        for _ in 0..<2_000 {
            let date = Date(timeIntervalSince1970: Double.random(in: -70_000_000_000...260_000_000_000, using: &random))
            #expect(SQLiteTime.string(from: date) == Self.padded(date))
        }
    }

    @Test func theFormatIsSQLites() {
        #expect(SQLiteTime.string(from: Date(timeIntervalSince1970: 1_767_225_600.25)) == "2026-01-01 00:00:00.250")
    }
}
