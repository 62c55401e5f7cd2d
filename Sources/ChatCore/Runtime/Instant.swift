import Foundation

/// A point in (virtual or real) time, in milliseconds since the Unix epoch.
public struct Instant: Codable, Sendable, Hashable, Comparable, CustomStringConvertible {
    public var milliseconds: Int64

    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    /// 2026-01-01T00:00:00Z, where the embedded world's clock starts.
    public static let simulationEpoch = Instant(milliseconds: 1_767_225_600_000)

    public static func < (a: Instant, b: Instant) -> Bool { a.milliseconds < b.milliseconds }

    public static func + (a: Instant, d: Duration) -> Instant {
        Instant(milliseconds: a.milliseconds + d.wholeMilliseconds)
    }

    public static func - (a: Instant, d: Duration) -> Instant {
        Instant(milliseconds: a.milliseconds - d.wholeMilliseconds)
    }

    public static func - (a: Instant, b: Instant) -> Duration {
        .milliseconds(a.milliseconds - b.milliseconds)
    }

    /// ISO 8601 with milliseconds, in UTC: `2026-01-01T00:00:00.000Z`.
    public var description: String {
        let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let ms = ((milliseconds % 1000) + 1000) % 1000
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03lldZ", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!, ms)
    }
}

extension Duration {
    /// The duration rounded down to whole milliseconds, saturating at
    /// `Int64.min`/`.max` (a lifetime of millennia must not trap).
    public var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        let (sum, overflowAgain) = milliseconds.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
        return overflow || overflowAgain ? (seconds < 0 ? .min : .max) : sum
    }
}
