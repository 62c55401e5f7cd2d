import Foundation

/// Wall-clock times as the database keeps them, `YYYY-MM-DD HH:MM:SS.SSS`
/// in UTC (GRDB's format for dates, which SQLite's date functions read),
/// formatted without a DateFormatter: the recorder writes one per step.
enum SQLiteTime {
    static func string(from date: Date) -> String {
        let interval = date.timeIntervalSince1970
        var seconds = time_t(interval.rounded(.down))
        let milliseconds = Int((interval - Double(seconds)) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2)) "
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(min(999, milliseconds)), 3))"
    }
}
