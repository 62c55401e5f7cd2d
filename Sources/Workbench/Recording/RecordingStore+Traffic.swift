import ChatCore
import ChatSDK
import ChatSQLite
import Foundation
import GRDB

extension RecordingStore {
    /// Appends entries to a session's tape, numbered from `firstSeq`, or
    /// when nil after its last one (looked up).
    static func insert(_ traffic: [TrafficEntry], step: Int?, wallTime: Date, firstSeq: Int?, sessionID: Int64, _ db: Database) throws {
        guard !traffic.isEmpty else { return }
        let first =
            try firstSeq
            ?? (Int.fetchOne(db.cachedStatement(sql: "SELECT MAX(seq) FROM traffic WHERE session_id = ?"), arguments: [sessionID]) ?? 0)
            + 1
        let wallTime = SQLiteTime.string(from: wallTime)
        let insert = try db.cachedStatement(
            sql: """
                INSERT INTO traffic (
                    session_id, seq, step, virtual_time, wall_time, channel, direction, summary, body, device_id, origin, exchange, kind)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        for (index, entry) in traffic.enumerated() {
            try insert.run(
                .int(sessionID), .int(Int64(first + index)), .int(step), .int(entry.time.milliseconds), .text(wallTime),
                .text(entry.channel.rawValue), .text(entry.direction.rawValue), .text(entry.summary), entry.body.map { .blob($0) } ?? .null,
                .text(entry.origin.label), .text(entry.origin.column), .int(entry.exchange), .text(entry.kind.json))
        }
    }

    /// A session's traffic tape, in order: what a replay with `--tape`
    /// feeds the SDK from (``TapeTransport``). Empty for an embedded session.
    package func traffic(of sessionID: Int64) throws(RecordingError) -> [RecordedTraffic] {
        try read { db in
            let clockOrigin = try Self.monotonicOrigin(of: sessionID, db)
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT seq, step, virtual_time, monotonic_time, wall_time, channel, direction, summary, body, device_id, origin, exchange,
                        kind
                    FROM traffic WHERE session_id = ? ORDER BY seq
                    """,
                arguments: [sessionID]
            ).map { row in
                let channel: String = row["channel"]
                let direction: String = row["direction"]
                guard let channel = TrafficEntry.Channel(rawValue: channel),
                    let direction = TrafficEntry.Direction(rawValue: direction)
                else {
                    throw RecordingError(
                        .corrupt,
                        "traffic \(row["seq"] as Int) of session \(sessionID) has channel \(channel) and direction \(direction): expected http or ws, and out or in"
                    )
                }
                let deviceId: String = row["device_id"]
                let origin: TrafficEntry.Origin
                if let column: String = row["origin"] {
                    guard let known = TrafficEntry.Origin(column: column, deviceId: deviceId) else {
                        throw RecordingError(
                            .corrupt,
                            "traffic \(row["seq"] as Int) of session \(sessionID) has origin \(column): expected device, network or other-side"
                        )
                    }
                    origin = known
                } else {
                    // Written before v12: the legacy reader tells whose it is from its device id.
                    origin = TrafficEntry.Origin(legacyDeviceId: deviceId)
                }
                let kind: TrafficEntry.Kind
                if let json: String = row["kind"] {
                    guard let typed = TrafficEntry.Kind(json: json) else {
                        throw RecordingError(
                            .corrupt, "traffic \(row["seq"] as Int) of session \(sessionID) has a kind this version cannot read: \(json)")
                    }
                    kind = typed
                } else {
                    // Written before v8: the legacy reader types it from its summary.
                    kind = TrafficEntry.Kind(legacySummary: row["summary"], channel: channel, direction: direction, origin: origin)
                }
                let entry = TrafficEntry(
                    time: Instant(milliseconds: Self.sessionTime(row["virtual_time"], row["monotonic_time"], origin: clockOrigin)),
                    origin: origin, channel: channel, direction: direction, kind: kind, body: row["body"], exchange: row["exchange"])
                return RecordedTraffic(seq: row["seq"], step: row["step"], wallTime: row["wall_time"], entry: entry)
            }
        }
    }
}
