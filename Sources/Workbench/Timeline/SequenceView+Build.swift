import ChatSDK
import Foundation

extension SequenceView {
    /// Longest body kept in an item's details.
    static let detailLimit = 600

    /// Lays out `session` from its recorded steps (with their events) and
    /// traffic rows.
    package init(session: RecordedSession, steps: [RecordedStep], traffic: [RecordedTraffic]) {
        var builder = Builder(traffic: traffic, devices: DeviceClients(session: session, steps: steps))
        let first = steps.first
        let origin =
            first.map { SessionListing.startTime(of: steps, first: $0, session: session) }
            ?? Int64((session.created.timeIntervalSince1970 * 1000).rounded(.down))
        start = min(origin, traffic.map(\.entry.time.milliseconds).min() ?? origin)
        // A field recording from v10 is drawn on the device's monotonic clock, from the wall time it began at.
        let monotonic = session.isFieldRecording && steps.contains { $0.deviceClock != nil }
        clock = session.mode == .server ? "wall time" : monotonic ? "the device's monotonic time" : "virtual time"
        title = ([SessionListing.summary(session)] + SessionListing.clockNotes(session, steps: steps)).joined(separator: "; ")
        builder.collectLanes(steps: steps)
        let byStep = Builder.rowsByStep(traffic, lastStep: steps.last?.number)
        var bands: [Band] = []
        var stepStart = start
        for (index, step) in steps.enumerated() {
            let status: StepStatus =
                index == steps.count - 1 && session.ended == nil && step.status == .ok
                ? .interrupted : step.status
            let items = builder.items(of: step, traffic: byStep[step.number] ?? [])
            let began = min(stepStart, items.first?.time ?? stepStart, step.events.first?.virtualTime ?? stepStart)
            bands.append(
                Band(
                    number: step.number, input: step.input, status: status, output: step.output,
                    start: began, end: step.virtualTime, items: items))
            stepStart = step.virtualTime
        }
        lanes = builder.lanes
        offlineWindows = builder.offlineWindows
        self.bands = Self.markingRuns(Self.markingOffline(bands))
    }

    /// Marks what happened between the network going offline and coming
    /// back, in the order drawn (virtual time often stands still between
    /// the two commands).
    static func markingOffline(_ bands: [Band]) -> [Band] {
        var offline = false
        return bands.map { band in
            var band = band
            for index in band.items.indices {
                let item = band.items[index]
                if let wentOffline = item.networkWentOffline { offline = wentOffline }
                band.items[index].offline = offline
            }
            return band
        }
    }

    /// Consecutive similar items (same kind, lanes and label but for its
    /// numbers), across steps: the first holds the run's length, the others
    /// are marked repeated, so that the page can collapse them.
    static func markingRuns(_ bands: [Band]) -> [Band] {
        var bands = bands
        var runStart: (band: Int, item: Int)?
        var runKey = ""
        var length = 0
        func close() {
            if let runStart, length > 1 { bands[runStart.band].items[runStart.item].runLength = length }
        }
        for b in bands.indices {
            for i in bands[b].items.indices {
                let item = bands[b].items[i]
                let key = "\(item.kind.rawValue) \(item.from) \(item.to) \(item.label.filter { !$0.isNumber }) \(item.answer ?? "")"
                if runStart != nil, key == runKey {
                    length += 1
                    bands[b].items[i].repeated = true
                } else {
                    close()
                    runStart = (b, i)
                    runKey = key
                    length = 1
                }
            }
        }
        close()
        return bands
    }
}

/// The state of a layout being built: the lanes found, the client that
/// acted last, the open exchanges, the offline windows.
struct Builder {
    var lanes: [SequenceView.Lane] = []
    var clientLanes: [String: Int] = [:]
    var offlineWindows: [SequenceView.OfflineWindow] = []
    /// Whether the session has traffic rows (then its `net:` events are not drawn: the rows say more).
    let hasTraffic: Bool
    var network = 0, server = 0, otherSide = 0
    /// The client lane of the last item seen (watchers and messages go there).
    var current = 0

    /// Each request's answer by the request's `seq`, and the answers' `seq`s.
    let answers: [Int: RecordedTraffic]
    let answered: Set<Int>

    /// Which client each device is.
    let devices: DeviceClients

    init(traffic: [RecordedTraffic], devices: DeviceClients) {
        self.devices = devices
        answers = Self.answers(traffic)
        answered = Set(answers.values.map(\.seq))
        hasTraffic = traffic.contains { $0.entry.origin != .network }
        pendingClients = traffic.compactMap(\.entry.deviceId)
    }

    private var pendingClients: [String]

    /// A client lane per client seen in events (`alice.session`), then per
    /// device of the traffic no client names (``DeviceClients``); then the network, the
    /// server and the other side.
    mutating func collectLanes(steps: [RecordedStep]) {
        var names: [String] = []
        for step in steps {
            for event in step.events {
                if case .state(let name, _) = event.kind { names.append(name) }
            }
        }
        names += pendingClients.map { devices.client(ofDevice: $0) ?? $0 }
        for name in names where clientLanes[name] == nil {
            clientLanes[name] = lanes.count
            lanes.append(.init(title: name, role: .client))
        }
        if lanes.isEmpty { lanes.append(.init(title: "client", role: .client)) }
        network = lanes.count
        lanes.append(.init(title: "network", role: .network))
        server = lanes.count
        lanes.append(.init(title: "server", role: .server))
        otherSide = lanes.count
        lanes.append(.init(title: "other side", role: .otherSide))
    }

    /// Traffic rows by the step that carried them; rows of no step go with
    /// the next step (or the last).
    static func rowsByStep(_ traffic: [RecordedTraffic], lastStep: Int?) -> [Int: [RecordedTraffic]] {
        var result: [Int: [RecordedTraffic]] = [:]
        var waiting: [RecordedTraffic] = []
        for row in traffic {
            guard let step = row.step else {
                waiting.append(row)
                continue
            }
            result[step, default: []] += waiting + [row]
            waiting = []
        }
        if let lastStep, !waiting.isEmpty { result[lastStep, default: []] += waiting }
        return result
    }

    /// A device's client lane (the other side has its own lane, the network its own).
    func lane(ofDevice device: String) -> Int {
        clientLanes[devices.client(ofDevice: device) ?? device] ?? current
    }

    /// One step's items, in time order.
    mutating func items(of step: RecordedStep, traffic: [RecordedTraffic]) -> [SequenceView.Item] {
        // At one moment: the network's changes first (they are the causes),
        // then events, then the rest of the traffic, each in its own order.
        var merged: [(time: Int64, rank: Int, order: Int, item: SequenceView.Item)] = []
        for event in step.events {
            guard let item = item(for: event) else { continue }
            merged.append((item.time, 1, merged.count, item))
        }
        for item in items(for: traffic) {
            let cause = item.from == network && item.to == network || item.kind == .restart
            merged.append((item.time, cause ? 0 : 2, merged.count, item))
        }
        return merged.sorted { ($0.time, $0.rank, $0.order) < ($1.time, $1.rank, $1.order) }.map(\.item)
    }

    /// An event's item, by the event's kind (never its text, which is
    /// only shown); nil for a request when the traffic rows say more.
    mutating func item(for event: RecordedEvent) -> SequenceView.Item? {
        let text = event.text
        var item = SequenceView.Item(time: event.virtualTime, kind: .event, from: current, to: current, label: text, detail: text)
        switch event.kind {
        case .state(let client, let change):
            guard let lane = clientLanes[client] else { break }
            current = lane
            item.kind = .state
            item.from = lane
            item.to = lane
            item.label = change
        case .request(let name, let answer):
            if hasTraffic { return nil }
            item.kind = answer.isOK ? .request : .refused
            item.to = server
            item.label = name
            item.answer = answer.text
        case .provider:
            item.kind = .provider
            item.from = otherSide
            item.to = otherSide
        case .message: item.kind = .message
        case .emission(_, let fresh): item.kind = fresh ? .fresh : .cached
        // Drawn as its watcher's cached lines are.
        case .watcherEnded: item.kind = .cached
        case .call, .other: break
        }
        return item
    }
}
