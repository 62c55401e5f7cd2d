import ChatCore
import ChatSQLite
import Foundation
import GRDB
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

    /// The flight recorder's times, whole milliseconds, are written exactly
    /// (no rounding through a `Double`), and read back to the millisecond.
    @Test func wholeMillisecondsAreWrittenExactly() throws {
        #expect(SQLiteTime.string(milliseconds: 1_767_225_600_123) == "2026-01-01 00:00:00.123")
        #expect(SQLiteTime.string(milliseconds: 1_767_225_600_999) == "2026-01-01 00:00:00.999")
        #expect(SQLiteTime.string(milliseconds: -1) == "1969-12-31 23:59:59.999")
        #expect(SQLiteTime.string(milliseconds: 0) == "1970-01-01 00:00:00.000")
        var random = SeededRandom(seed: 31)
        for _ in 0..<2_000 {
            let milliseconds = Int64.random(in: 0...4_102_444_800_000, using: &random)
            let text = SQLiteTime.string(milliseconds: milliseconds)
            let read = try #require(Date.fromDatabaseValue(text.databaseValue))
            #expect(Int64((read.timeIntervalSince1970 * 1000).rounded()) == milliseconds, "\(text)")
        }
    }
}
