import ChatCore
import ChatSDK
import ChatSimulation
import Foundation

/// What a field recording says happened, in the embedded world's terms
/// (issue 27 §4): the app's calls, the other side's messages and typing
/// from the tape, and the network's failures where the tape and the events
/// show them, each at its time since the recording began. Plain data, made
/// without a world: ``FieldExport`` runs it.
///
/// What is read from where:
///
/// - a call: each step (``FieldCall``);
/// - the other side: a `messageCreated` whose author is the provider (the
///   agent), on a frame or in an answer, at its `createdAt` (the device's
///   clock, clamped to the recording), once per message; a `typing` frame;
/// - `net drop`: a frame `closed: …` from the server;
/// - `net offline`: the connection's `waitingForNetwork(offline)`, or an answer
///   lost because the device had no network; `net online`: the next
///   request or opening after it;
/// - `net fail 1 --kind K`: an answer lost on the way (reset, refused,
///   timeout, unavailable), just before its request; `settle` where the
///   device sent it again (the world retries with back-off of its own).
///
/// What cannot be read is kept in ``notes``: a request that got no answer
/// at all, a message from another user, a call the workbench cannot make.
package struct FieldTimeline: Sendable {
    package struct Action: Sendable, Hashable {
        package enum Kind: Sendable, Hashable {
            /// The app's call of step `step`.
            case call(FieldCall, step: Int)
            case agentSays(conversation: String, text: String)
            case agentTyping(conversation: String, on: Bool)
            case drop
            case offline
            case online
            /// The next request fails this way (a `net fail --kind`).
            case fail(FailureKind)
            /// The device sent a lost request again: the world's own
            /// retry (its back-off) happens no later than here.
            case settle
        }

        /// Milliseconds since the recording began.
        package var time: Int64
        package var kind: Kind

        /// At the same time: the network first, then the call, then the other side.
        var order: Int {
            switch kind {
            case .drop: 0
            case .offline: 1
            case .fail: 2
            case .online: 3
            case .settle: 4
            case .call: 5
            case .agentSays, .agentTyping: 6
            }
        }
    }

    /// In order of time.
    package var actions: [Action] = []
    /// What could not be inferred, one line each.
    package var notes: [String] = []
    /// Per step: the state each message the app saw change was left in by
    /// the end of the step (its id on the device → state).
    package var states: [Int: [(id: String, state: SendState.Kind)]] = [:]
    /// Per step: the id of the message or conversation a call returned.
    package var returned: [Int: String] = [:]
    /// The device clock when the recording began (ms since the Unix epoch).
    package var start: Int64 = 0
    /// When requests were lost for want of a network (device clock).
    private var lostOffline: [Int64] = []
    /// When each call was made (device clock), by step.
    private var callTimes: [Int: Int64] = [:]

    /// Reads a field recording's steps (with their events) and traffic.
    package init(steps: [RecordedStep], traffic: [RecordedTraffic]) {
        start = min(steps.first?.virtualTime ?? .max, traffic.first?.entry.time.milliseconds ?? .max)
        if start == .max { start = 0 }
        readSteps(steps)
        readTraffic(traffic)
        readNetworkEvents(steps, traffic)
        actions = actions.enumerated().sorted {
            ($0.element.time, $0.element.order, $0.offset) < ($1.element.time, $1.element.order, $1.offset)
        }
        .map(\.element)
    }

    // MARK: Calls and states

    private mutating func readSteps(_ steps: [RecordedStep]) {
        for step in steps {
            guard let call = FieldCall(step) else {
                notes.append("step \(step.number) is not a call this version reads: \(step.input)")
                continue
            }
            if case .client(_, _, _, redacted: true) = call {
                notes.append(
                    "the recording's message texts are redacted (content: .redacted): the transcript's messages carry their summaries")
            }
            if case .unsupported(let name) = call {
                notes.append("step \(step.number) calls \(name), which the workbench cannot make again: \(step.input)")
            }
            actions.append(Action(time: step.virtualTime - start, kind: .call(call, step: step.number)))
            callTimes[step.number] = step.virtualTime
            var last: [(id: String, state: SendState.Kind)] = []
            for event in step.events {
                switch FieldEvent(event) {
                case .returned(_, let id) where call.returnsWhatTheAppNames: returned[step.number] = id
                case .message(let id, let state):
                    last.removeAll { $0.id == id }
                    last.append((id, state))
                default: break
                }
            }
            if !last.isEmpty { states[step.number] = last }
        }
    }

    // MARK: The tape

    private mutating func readTraffic(_ traffic: [RecordedTraffic]) {
        var seen: Set<String> = []
        var others: Set<String> = []
        /// Requests lost on the way, by device, not yet sent again.
        var lostRequests: Set<LostRequest> = []
        for (index, row) in traffic.enumerated() {
            let entry = row.entry
            let time = entry.time.milliseconds - start
            switch (entry.channel, entry.direction) {
            case (.ws, .in):
                if case .closed = entry.kind {
                    actions.append(Action(time: time, kind: .drop))
                } else if let event = TapeCoding.decode(WireEvent.self, from: entry.body) {
                    switch event.kind {
                    case .messageCreated(let message): other(message, seenAt: time, &seen, &others)
                    case .typing(let conversation, _, let until):
                        actions.append(Action(time: time, kind: .agentTyping(conversation: conversation, on: until != nil)))
                    case .conversationUpdated: break
                    }
                }
            case (.http, .in):
                guard let answer = TapeCoding.decode(TapeAnswer.self, from: entry.body) else { continue }
                switch answer.response {
                case .messages(let page)?: for message in page.elements { other(message, seenAt: time, &seen, &others) }
                case .sent(_, let message)?: seen.insert(message.id)
                default: break
                }
                if let lost = answer.lost, let request = self.request(answering: index, in: traffic) {
                    let at = failureTime(of: request, in: traffic) - start
                    if lost.offline || lost.kind == .offline {
                        lostOffline.append(request.entry.time.milliseconds)
                    } else {
                        actions.append(Action(time: at, kind: .fail(Self.failKind(lost.kind))))
                        lostRequests.insert(LostRequest(origin: request.entry.origin, kind: request.entry.kind))
                    }
                }
            case (.http, .out):
                if lostRequests.remove(LostRequest(origin: entry.origin, kind: entry.kind)) != nil {
                    actions.append(Action(time: time, kind: .settle))
                }
                if !traffic[(index + 1)...].contains(where: {
                    $0.entry.direction == .in && $0.entry.channel == .http && Self.sameExchange($0.entry, entry)
                }) {
                    notes.append(
                        "\(entry.summary) at \(Format.duration(milliseconds: time)) got no answer on the tape (the recording ends, or the app was killed, first): not exported"
                    )
                }
            default: break
            }
        }
    }

    /// A message of the other side, the first time the tape shows it: the
    /// agent says it at its creation (clamped into the recording).
    private mutating func other(_ message: WireMessage, seenAt time: Int64, _ seen: inout Set<String>, _ others: inout Set<String>) {
        guard seen.insert(message.id).inserted else { return }
        switch message.author {
        case .provider:
            guard case .text(let text) = message.content else {
                notes.append("the other side's \(message.id) is an attachment: not exported (agent send needs its file)")
                return
            }
            let created = message.createdAt.milliseconds - start
            actions.append(
                Action(time: (0...max(0, time)).clamped(created), kind: .agentSays(conversation: message.conversationId, text: text)))
        case .user(let id):
            if others.insert(id).inserted, !ownUsers.contains(id) {
                notes.append("messages from the user \(id) (not the app's) are not exported: the workbench's other side is the agent")
            }
        case .system: break
        }
    }

    /// The users the app signed in as (calls read so far).
    private var ownUsers: Set<String> {
        Set(
            actions.compactMap {
                if case .call(.setCurrentUser(let id), _) = $0.kind { id } else { nil }
            })
    }

    /// The connection's `waitingForNetwork(offline)` sends the network
    /// offline; the next request or opening after it brings it back.
    private mutating func readNetworkEvents(_ steps: [RecordedStep], _ traffic: [RecordedTraffic]) {
        let waiting = steps.flatMap(\.events).filter { FieldEvent($0) == .connection(.waitingForNetwork(reason: .offline)) }
        let offline = (waiting.map(\.virtualTime) + lostOffline).sorted()
        let outs = traffic.filter { $0.entry.direction == .out && $0.entry.kind != .close }.map(\.entry.time.milliseconds)
        var back = Int64.min
        for time in offline where time > back {
            actions.append(Action(time: time - start, kind: .offline))
            guard let next = outs.first(where: { $0 > time }) else { break }
            back = next
            actions.append(Action(time: next - start, kind: .online))
        }
    }

    /// When to arm a `net fail` so that the world's next request is the
    /// one that failed: before the call whose step it crossed in (the call
    /// likely made it), but after any request that crossed since.
    private func failureTime(of request: RecordedTraffic, in traffic: [RecordedTraffic]) -> Int64 {
        let time = request.entry.time.milliseconds
        let call = request.step.flatMap { callTimes[$0] } ?? time
        let before = traffic.last { $0.seq < request.seq && $0.entry.direction == .out && $0.entry.channel == .http }
        return min(time, max(call, before.map { $0.entry.time.milliseconds } ?? call))
    }

    private func request(answering index: Int, in traffic: [RecordedTraffic]) -> RecordedTraffic? {
        traffic[..<index].last {
            $0.entry.direction == .out && $0.entry.channel == .http && Self.sameExchange($0.entry, traffic[index].entry)
        }
    }

    /// A request lost on the way: the same request of the same device, sent again, settles it.
    private struct LostRequest: Hashable {
        var origin: TrafficEntry.Origin
        var kind: TrafficEntry.Kind
    }

    private static func sameExchange(_ a: TrafficEntry, _ b: TrafficEntry) -> Bool {
        a.origin == b.origin && a.exchange == b.exchange
    }

    /// The `net fail --kind` for a lost answer's kind.
    static func failKind(_ kind: TransportError.Kind?) -> FailureKind {
        switch kind {
        case .refused?: .refused
        case .timeout?: .timeout
        case .unavailable?, .rateLimited?: .unavailable
        default: .reset
        }
    }
}

extension ClosedRange where Bound == Int64 {
    fileprivate func clamped(_ value: Int64) -> Int64 { Swift.min(upperBound, Swift.max(lowerBound, value)) }
}
