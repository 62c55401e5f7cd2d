/// A recorded session laid out as a sequence diagram: lanes (one per
/// client, the network, the server, the other side), the steps as bands in
/// order, and in each band what happened, one row per item, in time order.
/// Built from what the recording store holds (``SequenceView/init(session:steps:traffic:)``)
/// and drawn by ``SequenceHTML``; everything in it is as redacted as the
/// recording.
package struct SequenceView: Sendable, Hashable {
    package struct Lane: Sendable, Hashable {
        package enum Role: String, Sendable, Hashable {
            case client, network, server
            case otherSide = "other"
        }
        package var title: String
        package var role: Role
    }

    /// What an item is; also its CSS class.
    package enum Kind: String, Sendable, Hashable, CaseIterable {
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

    package struct Item: Sendable, Hashable {
        /// When it started (a request: when it left), ms since the Unix epoch.
        package var time: Int64
        package var kind: Kind
        /// Lane indexes; equal for an item drawn in one lane, otherwise an
        /// arrow from `from` to `to`.
        package var from: Int
        package var to: Int
        package var label: String
        /// The answer or outcome shown after the label (`ok sent`, `error failed`).
        package var answer: String?
        /// Everything known about it, for hover and click.
        package var detail: String
        /// True when it happened while the network was offline.
        package var offline = false
        /// A change of the whole network: true when it went offline, false
        /// when it came back; nil for every other item.
        package var networkWentOffline: Bool?
        /// On the first of a run of similar items: how many the run has (2 or more).
        package var runLength = 0
        /// On the others of such a run.
        package var repeated = false

        package var isFailure: Bool { kind == .lost || kind == .refused }
    }

    package struct Band: Sendable, Hashable {
        package var number: Int
        package var input: String
        /// How it ended; `interrupted` also for the last step of a session
        /// whose process never ended it.
        package var status: StepStatus
        package var output: String
        /// When it started and ended.
        package var start: Int64
        package var end: Int64
        package var items: [Item]

        package var statusLabel: String {
            switch status {
            case .ok: "ok"
            case .expectFailed: "failed expect"
            case .scriptError: "script error"
            case .interrupted: "interrupted"
            case .quit: status.recordedName
            }
        }
        package var failed: Bool { status != .ok && status != .quit }
    }

    package var title: String
    /// What the times count from.
    package var start: Int64
    /// `virtual time` or `wall time`.
    package var clock: String
    package var lanes: [Lane]
    package var bands: [Band]
    /// Where the network was offline: from, to (nil: until the end).
    package var offlineWindows: [OfflineWindow]

    package struct OfflineWindow: Sendable, Hashable {
        package var from: Int64
        package var to: Int64?
        package func contains(_ time: Int64) -> Bool { time >= from && (to.map { time < $0 } ?? true) }
    }

    /// The first step that failed (an expect, a script line, an interrupted
    /// step); else the first that lost or had refused a request. A refused
    /// request is often what a script sets out to show, and a failed expect
    /// later is the failure (issue 30: the link went to the refusal).
    package var firstFailure: Int? {
        bands.first(where: \.failed)?.number ?? bands.first { $0.items.contains(where: \.isFailure) }?.number
    }
}
