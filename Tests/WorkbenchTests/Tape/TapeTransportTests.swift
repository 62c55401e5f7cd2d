import ChatCore
import ChatSDK
import ChatSimulation
import ChatTestSupport
import Foundation
import Testing

@testable import Workbench

@Suite struct TapeTransportTests {
    private let list = envelope(.listConversations(cursor: nil, limit: 20))
    private let send = envelope(
        .sendMessage(conversationId: "c-1", createConversation: nil, message: NewMessage(id: "m-1", content: .text("hi"), replyTo: nil)))
    private let typing = envelope(.setTyping(conversationId: "c-1", isTyping: true))

    /// The tape of `list`, `send` and `typing` against the scripted server,
    /// each request in its own step.
    private func recordedTape() throws -> [RecordedTraffic] {
        let world = try World(seed: 1)
        let entries = Locked<[TrafficEntry]>([])
        let transport = TapeRecordingTransport(wrapping: ScriptedTransport(runtime: world), runtime: world) { entries.append($0) }
        var tape: [RecordedTraffic] = []
        for (number, request) in [list, send, typing].enumerated() {
            world.advance(by: .milliseconds(100))
            _ = world.run { await outcome { try await transport.perform(request) } }
            for entry in entries.take(leaving: []) {
                tape.append(RecordedTraffic(seq: tape.count + 1, step: number + 1, wallTime: Date(), entry: entry))
            }
        }
        return tape
    }

    @Test func recordedAnswersComeBackInOrderAtTheirTimes() throws {
        let tape = try recordedTape()
        let world = try World(seed: 2)
        let player = TapeTransport(tape: tape, runtime: world)
        // The requests carry other tokens now: the tape's are placeholders.
        let requests = [list, send, typing].map { request in
            var request = request
            request.accessToken = "<token#1>"
            return request
        }
        var answers: [String] = []
        var times: [Int64] = []
        for (number, request) in requests.enumerated() {
            player.beginStep(number + 1)
            world.advance(by: .milliseconds(100))
            answers.append(try #require(try world.run { await outcome { try await player.perform(request) } }?.get()))
            times.append(world.now.milliseconds)
        }
        #expect(answers == ["ok conversations", "expiredToken: The access token has expired", "The device is offline"])
        #expect(times == tape.filter { $0.entry.direction == .in }.map(\.entry.time.milliseconds))
        #expect(player.divergences.isEmpty)
        #expect(player.unusedEntries.isEmpty)
    }

    @Test func aDifferentRequestIsADivergence() throws {
        let world = try World(seed: 2)
        let player = TapeTransport(tape: try recordedTape(), runtime: world)
        player.beginStep(1)
        // Same route, another page size: answered from the tape all the same.
        let other = envelope(.listConversations(cursor: nil, limit: 5))
        #expect(try world.run { await outcome { try await player.perform(other) } }?.get() == "ok conversations")
        player.beginStep(2)
        // Another route: not on the tape.
        let answer = try world.run { await outcome { try await player.perform(typing) } }?.get()
        #expect(
            answer
                == "POST /v1/conversations/c-1/typing from alice-device is not on the tape: its next request from alice-device is POST /v1/conversations/c-1/messages"
        )
        #expect(player.divergences.map(\.step) == [1, 2])
        #expect(
            player.divergences.map(\.description).first == """
                step 1, alice-device: sent GET /v1/conversations?limit=5 {"accessToken":"<masked>","apiKey":"<masked>","deviceId":"alice-device","request":{"listConversations":{"limit":5}}}; \
                the tape has GET /v1/conversations?limit=20 {"accessToken":"<masked>","apiKey":"<masked>","deviceId":"alice-device","request":{"listConversations":{"limit":20}}}
                """)
        // The send and the typing it skipped stay on the tape.
        #expect(
            player.unusedEntries.map(\.entry.summary) == [
                "POST /v1/conversations/c-1/messages", "error expiredToken", "POST /v1/conversations/c-1/typing", "error offline",
            ])
        // A device the tape does not know.
        let stranger = envelope(.getCurrentUser, device: "carol-device")
        #expect(
            try world.run { await outcome { try await player.perform(stranger) } }?.get()
                == "POST /v1/identity from carol-device is not on the tape: it has no more requests from carol-device")
        #expect(player.divergences.last?.tape == nil)
    }

    @Test func concurrentRequestsAreMatchedToTheirOwnAnswers() throws {
        // Two requests in flight together, answered in the other order.
        let t0 = Instant.simulationEpoch
        func entry(_ ms: Int64, _ direction: TrafficEntry.Direction, _ summary: String, _ body: Data?, _ exchange: Int) -> TrafficEntry {
            TrafficEntry(
                time: t0 + .milliseconds(ms), origin: .device("alice-device"), channel: .http, direction: direction,
                kind: .described(summary, .http, direction, .device("alice-device")), body: body,
                exchange: exchange)
        }
        let (list, other) = (list, envelope(.getConversation(id: "c-9")))
        let world = try World(seed: 3)
        let player = TapeTransport(
            entries: [
                entry(0, .out, "GET /v1/conversations?limit=20", TapeCoding.encode(list), 1),
                entry(0, .out, "GET /v1/conversations/c-9", TapeCoding.encode(other), 2),
                entry(30, .in, "error unknownConversation", TapeCoding.encode(TapeAnswer(error: WireError(.unknownConversation))), 2),
                entry(50, .in, "ok conversations", TapeCoding.encode(TapeAnswer(ScriptedTransport.page)), 1),
            ], runtime: world)
        let finished = Locked<[String]>([])
        // The SDK sends them in the other order this time.
        world.spawn {
            finished.append(await outcome { try await player.perform(other) } + " at \(world.now.milliseconds - t0.milliseconds)")
        }
        world.spawn {
            finished.append(await outcome { try await player.perform(list) } + " at \(world.now.milliseconds - t0.milliseconds)")
        }
        world.runUntilIdle()
        #expect(finished.value == ["unknownConversation: No such conversation at 30", "ok conversations at 50"])
        #expect(player.divergences.isEmpty && player.unusedEntries.isEmpty)
    }

    @Test func framesArriveInOrderDuringTheirOwnSteps() throws {
        let t0 = Instant.simulationEpoch
        let request = RealtimeRequest(apiKey: "demo-key", accessToken: "<token#1>", deviceId: "bob-device", afterUserSeq: 4)
        func row(_ step: Int, _ ms: Int64, _ direction: TrafficEntry.Direction, _ summary: String, _ body: Data?) -> RecordedTraffic {
            RecordedTraffic(
                seq: 0, step: step, wallTime: Date(),
                entry: TrafficEntry(
                    time: t0 + .milliseconds(ms), origin: .device("bob-device"), channel: .ws, direction: direction,
                    kind: .described(summary, .ws, direction, .device("bob-device")), body: body,
                    exchange: 1))
        }
        let tape = [
            row(1, 0, .out, "open after=4", TapeCoding.encode(TapeOpening(request))),
            row(1, 20, .in, "ready", nil),
            row(1, 40, .in, "event #5 messageCreated", TapeCoding.encode(event(5, "one"))),
            row(2, 1_000, .in, "event #6 messageCreated", TapeCoding.encode(event(6, "two"))),
            row(2, 1_500, .in, "event #7 messageCreated", TapeCoding.encode(event(7, "three"))),
            row(3, 2_000, .in, "closed: server going away", TapeCoding.encode(TapeClose(reason: "server going away"))),
        ]
        let world = try World(seed: 4)
        let player = TapeTransport(tape: tape, runtime: world)
        let received = Locked<[String]>([])
        func log(_ signal: RealtimeSignal) {
            let at = world.now.milliseconds - t0.milliseconds
            switch signal {
            case .event(let event): received.append("#\(event.userSeq) at \(at)")
            case .closed(let reason, _): received.append("closed (\(reason)) at \(at)")
            }
        }
        player.beginStep(1)
        // Like the SDK: open, then read the frames.
        world.spawn {
            guard let connection = try? await player.openRealtime(request) else { return }
            received.append("ready at \(world.now.milliseconds - t0.milliseconds)")
            for await signal in connection.signals { log(signal) }
        }
        world.runUntilIdle()
        #expect(received.value == ["ready at 20", "#5 at 40"])
        // Step 1 ends there: what step 2 had waits for it.
        world.runUntilIdle()
        #expect(received.value == ["ready at 20", "#5 at 40"])
        player.beginStep(2)
        world.runUntilIdle()
        #expect(received.value == ["ready at 20", "#5 at 40", "#6 at 1000", "#7 at 1500"])
        player.beginStep(3)
        world.runUntilIdle()
        #expect(received.value == ["ready at 20", "#5 at 40", "#6 at 1000", "#7 at 1500", "closed (server going away) at 2000"])
        #expect(player.unusedEntries.isEmpty && player.divergences.isEmpty)
        // A second opening is not on the tape.
        let again = world.run { try await player.openRealtime(request) }
        #expect(throws: TransportError.self) { try again?.get() }
    }

    @Test func closingStopsTheFramesAndOtherCatchUpIsADivergence() throws {
        let t0 = Instant.simulationEpoch
        let request = RealtimeRequest(apiKey: "demo-key", accessToken: "at_whatever1", deviceId: "bob-device", afterUserSeq: nil)
        func entry(_ ms: Int64, _ direction: TrafficEntry.Direction, _ summary: String, _ body: Data?) -> TrafficEntry {
            TrafficEntry(
                time: t0 + .milliseconds(ms), origin: .device("bob-device"), channel: .ws, direction: direction,
                kind: .described(summary, .ws, direction, .device("bob-device")), body: body,
                exchange: 1)
        }
        let world = try World(seed: 4)
        let player = TapeTransport(
            entries: [
                entry(
                    0, .out, "open after=2",
                    TapeCoding.encode(
                        TapeOpening(RealtimeRequest(apiKey: "k", accessToken: "<token#1>", deviceId: "bob-device", afterUserSeq: 2)))),
                entry(20, .in, "ready", nil),
                entry(40, .in, "event #3 messageCreated", TapeCoding.encode(event(3, "one"))),
                entry(60, .out, "close", nil),
                entry(80, .in, "event #4 messageCreated", TapeCoding.encode(event(4, "two"))),
            ], runtime: world)
        let received = Locked<[Int64]>([])
        world.spawn {
            guard let connection = try? await player.openRealtime(request) else { return }
            for await signal in connection.signals {
                guard case .event(let event) = signal else { continue }
                received.append(event.userSeq)
                connection.close()
            }
        }
        world.runUntilIdle()
        #expect(player.divergences.map(\.sent) == [#"open after=- {"accessToken":"<masked>","apiKey":"<masked>","deviceId":"bob-device"}"#])
        #expect(received.value == [3])
        #expect(player.unusedEntries.map(\.entry.summary) == ["event #4 messageCreated"])
    }
}
