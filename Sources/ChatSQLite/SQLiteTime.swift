import Foundation

/// Wall-clock times as the database keeps them, `YYYY-MM-DD HH:MM:SS.SSS`
/// in UTC (GRDB's format for dates, which SQLite's date functions read),
/// formatted without a DateFormatter: the workbench's recorder writes one
/// per step, the SDK's flight recorder one per call and wire row.
package enum SQLiteTime {
    package static func string(from date: Date) -> String {
        let interval = date.timeIntervalSince1970
        let seconds = time_t(interval.rounded(.down))
        return string(seconds: seconds, milliseconds: Int((interval - Double(seconds)) * 1000))
    }

    /// The same for a time in whole milliseconds since the Unix epoch,
    /// exactly (no rounding through a `Double`).
    package static func string(milliseconds time: Int64) -> String {
        let (seconds, milliseconds) = time.quotientAndRemainder(dividingBy: 1000)
        return milliseconds < 0
            ? string(seconds: time_t(seconds - 1), milliseconds: Int(milliseconds + 1000))
            : string(seconds: time_t(seconds), milliseconds: Int(milliseconds))
    }

    private static func string(seconds: time_t, milliseconds: Int) -> String {
        var seconds = seconds
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let year = Int(parts.tm_year) + 1900
        guard (0...9999).contains(year), (0...999).contains(milliseconds) else {
            return paddedString(parts, milliseconds: milliseconds)
        }
        // Digits written in place: string interpolation of seven padded
        // numbers was 6,000 instructions of each recorded step.
        return String(unsafeUninitializedCapacity: 23) { buffer in
            func put(_ value: Int, width: Int, at offset: Int) {
                var rest = value
                for index in (offset..<offset + width).reversed() {
                    buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
            }
            put(year, width: 4, at: 0)
            buffer[4] = UInt8(ascii: "-")
            put(Int(parts.tm_mon) + 1, width: 2, at: 5)
            buffer[7] = UInt8(ascii: "-")
            put(Int(parts.tm_mday), width: 2, at: 8)
            buffer[10] = UInt8(ascii: " ")
            put(Int(parts.tm_hour), width: 2, at: 11)
            buffer[13] = UInt8(ascii: ":")
            put(Int(parts.tm_min), width: 2, at: 14)
            buffer[16] = UInt8(ascii: ":")
            put(Int(parts.tm_sec), width: 2, at: 17)
            buffer[19] = UInt8(ascii: ".")
            put(milliseconds, width: 3, at: 20)
            return 23
        }
    }

    /// The same text for any year, by padding each number's own text.
    package static func paddedString(_ parts: tm, milliseconds: Int) -> String {
        func pad(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2)) "
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(min(999, milliseconds)), 3))"
    }
}
