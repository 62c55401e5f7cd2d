import Foundation

/// A point in (virtual or real) time, in milliseconds since the Unix epoch.
package struct Instant: Codable, Sendable, Hashable, Comparable, CustomStringConvertible {
    package var milliseconds: Int64

    package init(milliseconds: Int64) { self.milliseconds = milliseconds }

    /// 2026-01-01T00:00:00Z, where the embedded world's clock starts.
    package static let simulationEpoch = Instant(milliseconds: 1_767_225_600_000)

    package static func < (a: Instant, b: Instant) -> Bool { a.milliseconds < b.milliseconds }

    package static func + (a: Instant, d: Duration) -> Instant {
        Instant(milliseconds: a.milliseconds + d.wholeMilliseconds)
    }

    package static func - (a: Instant, d: Duration) -> Instant {
        Instant(milliseconds: a.milliseconds - d.wholeMilliseconds)
    }

    package static func - (a: Instant, b: Instant) -> Duration {
        .milliseconds(a.milliseconds - b.milliseconds)
    }

    /// ISO 8601 with milliseconds, in UTC: `2026-01-01T00:00:00.000Z`.
    package var description: String {
        // Workbench output prints an instant on most steps: days to a civil
        // date by arithmetic (no Calendar, no formatter) for years 1583…9999,
        // where the proleptic Gregorian calendar and Foundation's agree.
        if milliseconds >= Self.fastRange.lowerBound, milliseconds < Self.fastRange.upperBound {
            return Self.iso8601(milliseconds)
        }
        return Self.calendarISO8601(milliseconds)
    }

    /// The same text through Foundation's Gregorian calendar (any time).
    static func calendarISO8601(_ milliseconds: Int64) -> String {
        let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let ms = ((milliseconds % 1000) + 1000) % 1000
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03lldZ", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!, ms)
    }

    /// 1583-01-01T00:00:00Z ..< 10000-01-01T00:00:00Z.
    static let fastRange: Range<Int64> = -12_212_553_600_000..<253_402_300_800_000

    /// Howard Hinnant's `civil_from_days`, for a time in `fastRange`.
    static func iso8601(_ milliseconds: Int64) -> String {
        let days = milliseconds >= 0 ? milliseconds / 86_400_000 : (milliseconds - 86_399_999) / 86_400_000
        let msOfDay = milliseconds - days * 86_400_000
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        var bytes: [UInt8] = Array("0000-00-00T00:00:00.000Z".utf8)
        func put(_ value: Int64, at end: Int, width: Int) {
            var value = value
            for index in stride(from: end, to: end - width, by: -1) {
                bytes[index] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
        }
        put(year, at: 3, width: 4)
        put(month, at: 6, width: 2)
        put(day, at: 9, width: 2)
        put(msOfDay / 3_600_000, at: 12, width: 2)
        put(msOfDay / 60_000 % 60, at: 15, width: 2)
        put(msOfDay / 1000 % 60, at: 18, width: 2)
        put(msOfDay % 1000, at: 22, width: 3)
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension Duration {
    /// The duration rounded down to whole milliseconds, saturating at
    /// `Int64.min`/`.max` (a lifetime of millennia must not trap).
    package var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        let (sum, overflowAgain) = milliseconds.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
        return overflow || overflowAgain ? (seconds < 0 ? .min : .max) : sum
    }
}
