/// A recorded session laid out as a sequence diagram: lanes (one per
/// client, the network, the server, the other side), the steps as bands in
/// order, and in each band what happened, one row per item, in time order.
/// Built from what the recording store holds (``SequenceView/init(session:steps:traffic:)``)
/// and drawn by ``SequenceHTML``; everything in it is as redacted as the
/// recording.
public struct SequenceView: Sendable, Hashable {
    public struct Lane: Sendable, Hashable {
        public enum Role: String, Sendable, Hashable {
            case client, network, server
            case otherSide = "other"
        }
        public var title: String
        public var role: Role
    }

    /// What an item is; also its CSS class.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A request answered `ok`.
        case request = "req"
        /// A request the server answered with an error code.
        case refused = "err"
        /// A request lost on the way (offline, `net fail`, cancelled): it stops at the network.
        case lost
        /// An event stream's opening or the client's close of it.
        case stream = "ws"
        /// A realtime frame from the server (an event, or its close).
        case frame
        /// A call of the other side (the app's backend, the agent).
        case call
        /// A change of the network's conditions or a fault (offline, `net fail`, drop).
        case fault
        /// An app restart.
        case restart
        /// A session or connection state change.
        case state
        /// A watcher emission with fresh data.
        case fresh
        /// A watcher emission from the cache, or one that ended.
        case cached
        /// A message's state change.
        case message = "msg"
        /// The token provider.
        case provider
        /// Anything else the world logged.
        case event
    }

    public struct Item: Sendable, Hashable {
        /// When it started (a request: when it left), ms since the Unix epoch.
        public var time: Int64
        public var kind: Kind
        /// Lane indexes; equal for an item drawn in one lane, otherwise an
        /// arrow from `from` to `to`.
        public var from: Int
        public var to: Int
        public var label: String
        /// The answer or outcome shown after the label (`ok sent`, `error failed`).
        public var answer: String?
        /// Everything known about it, for hover and click.
        public var detail: String
        /// True when it happened while the network was offline.
        public var offline = false
        /// On the first of a run of similar items: how many the run has (2 or more).
        public var runLength = 0
        /// On the others of such a run.
        public var repeated = false

        public var isFailure: Bool { kind == .lost || kind == .refused }
    }

    public struct Band: Sendable, Hashable {
        public var number: Int
        public var input: String
        /// `ok`, `expectFailed`, `scriptError`, `quit`, or `interrupted` (the
        /// last step of a session whose process never ended it).
        public var status: String
        public var output: String
        /// When it started and ended.
        public var start: Int64
        public var end: Int64
        public var items: [Item]

        public var statusLabel: String {
            switch status {
            case "ok": "ok"
            case "expectFailed": "failed expect"
            case "scriptError": "script error"
            case "interrupted": "interrupted"
            default: status
            }
        }
        public var failed: Bool { status != "ok" && status != "quit" }
    }

    public var title: String
    /// What the times count from.
    public var start: Int64
    /// `virtual time` or `wall time`.
    public var clock: String
    public var lanes: [Lane]
    public var bands: [Band]
    /// Where the network was offline: from, to (nil: until the end).
    public var offlineWindows: [OfflineWindow]

    public struct OfflineWindow: Sendable, Hashable {
        public var from: Int64
        public var to: Int64?
        public func contains(_ time: Int64) -> Bool { time >= from && (to.map { time < $0 } ?? true) }
    }

    /// The first step that failed or lost or had refused a request.
    public var firstFailure: Int? {
        bands.first { $0.failed || $0.items.contains(where: \.isFailure) }?.number
    }
}
