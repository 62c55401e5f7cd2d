import ChatCore
import ChatSDK

extension FieldReplayClient {
    /// The replay's client for a recording whose client had `cacheMode`.
    ///
    /// A bridge, to remove: FieldReplay.swift is being changed in another
    /// branch, and its designated initializer still takes the mode's raw
    /// value; when it takes `ChatClient.CacheMode`, this goes (issue 30).
    convenience init(
        session: RecordedSession, start: Instant, traffic: [RecordedTraffic], reachability: [(time: Int64, reachable: Bool)],
        ids: ReplayedIDs, file: String, cacheMode: ChatClient.CacheMode, autoResend: Bool, pageSize: Int, redacted: Bool
    ) throws {
        try self.init(
            session: session, start: start, traffic: traffic, reachability: reachability, ids: ids, file: file,
            cacheMode: cacheMode.rawValue, autoResend: autoResend, pageSize: pageSize, redacted: redacted)
    }
}
