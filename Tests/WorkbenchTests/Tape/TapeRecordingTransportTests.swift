import ChatCore
import ChatSDK
import ChatSimulation
import ChatTestSupport
import Foundation
import Testing

@testable import Workbench

@Suite struct TapeRecordingTransportTests {
    /// A world, a scripted server behind the recording transport, and what it reported.
    private func rig() throws -> (World, ScriptedTransport, TapeRecordingTransport, Locked<[TrafficEntry]>) {
        let world = try World(seed: 1)
        let inner = ScriptedTransport(runtime: world)
        let entries = Locked<[TrafficEntry]>([])
        let transport = TapeRecordingTransport(wrapping: inner, runtime: world) { entries.append($0) }
        return (world, inner, transport, entries)
    }

    private func line(_ entry: TrafficEntry) -> String {
        let arrow = entry.direction == .out ? "→" : "←"
        return
            "+\(entry.time.milliseconds - Instant.simulationEpoch.milliseconds) #\(entry.exchange ?? 0) \(entry.origin.label) \(entry.channel) \(arrow) \(entry.summary)"
    }

    @Test func requestsAndTheirAnswersAreReportedWithTheirTimes() throws {
        let (world, _, transport, entries) = try rig()
        let list = envelope(.listConversations(cursor: nil, limit: 20))
        let send = envelope(
            .sendMessage(conversationId: "c 1", createConversation: nil, message: NewMessage(id: "m-1", content: .text("hi"), replyTo: nil))
        )
        let typing = envelope(.setTyping(conversationId: "c-1", isTyping: true))
        let results = world.run {
            [
                await outcome { try await transport.perform(list) }, await outcome { try await transport.perform(send) },
                await outcome { try await transport.perform(typing) },
            ]
        }
        #expect(try results?.get() == ["ok conversations", "expiredToken: The access token has expired", "The device is offline"])
        #expect(
            entries.value.map(line) == [
                "+0 #1 alice-device http → GET /v1/conversations?limit=20",
                "+20 #1 alice-device http ← ok conversations",
                "+20 #2 alice-device http → POST /v1/conversations/c%201/messages",
                "+40 #2 alice-device http ← error expiredToken",
                "+40 #3 alice-device http → POST /v1/conversations/c-1/typing",
                "+60 #3 alice-device http ← error offline",
            ])
        let bodies = entries.value.map { String(decoding: $0.body ?? Data(), as: UTF8.self) }
        #expect(TapeCoding.decode(WireEnvelope.self, from: entries.value[2].body) == send)
        #expect(bodies[1] == #"{"response":{"conversations":{"_0":{"elements":[]}}}}"#)
        #expect(bodies[3] == #"{"error":{"code":"expiredToken","message":"The access token has expired"}}"#)
        #expect(bodies[5] == #"{"lost":{"kind":"offline","message":"The device is offline","offline":true}}"#)
    }

    @Test func anEventStreamIsReportedFromOpeningToClose() throws {
        let (world, inner, transport, entries) = try rig()
        let received = Locked<[RealtimeSignal]>([])
        let request = RealtimeRequest(apiKey: "demo-key", accessToken: "at_secretsecret1", deviceId: "bob-device", afterUserSeq: 4)
        let connection = try #require(try world.run { try await transport.openRealtime(request) }?.get())
        world.spawn { for await signal in connection.signals { received.append(signal) } }
        world.advance(by: .milliseconds(5))
        let stream = try #require(inner.streams.value.first)
        stream.yield(.event(event(5, "hello")))
        world.advance(by: .milliseconds(5))
        stream.yield(.event(event(6, "again")))
        world.runUntilIdle()
        connection.close()
        // What the stream still held after the SDK closed it is not reported.
        stream.yield(.event(event(7, "late")))
        world.runUntilIdle()
        #expect(received.value == [.event(event(5, "hello")), .event(event(6, "again"))])
        #expect(inner.closes.value == 1)
        #expect(
            entries.value.map(line) == [
                "+0 #1 bob-device ws → open after=4",
                "+10 #1 bob-device ws ← ready",
                "+15 #1 bob-device ws ← event #5 messageCreated",
                "+20 #1 bob-device ws ← event #6 messageCreated",
                "+20 #1 bob-device ws → close",
            ])
        #expect(TapeCoding.decode(WireEvent.self, from: entries.value[2].body) == event(5, "hello"))
        #expect(TapeCoding.decode(TapeOpening.self, from: entries.value[0].body) == TapeOpening(request))
    }

    @Test func aRefusedOpeningAndAServerCloseAreReported() throws {
        let (world, inner, transport, entries) = try rig()
        let refused = RealtimeRequest(apiKey: "demo-key", accessToken: "at_x", deviceId: "d", afterUserSeq: 99)
        let outcome = world.run { try await transport.openRealtime(refused) }
        #expect(throws: WireError(.invalidToken)) { try outcome?.get() }
        let request = RealtimeRequest(apiKey: "demo-key", accessToken: "at_x", deviceId: "d", afterUserSeq: nil)
        let connection = try #require(try world.run { try await transport.openRealtime(request) }?.get())
        let received = Locked<[RealtimeSignal]>([])
        world.spawn { for await signal in connection.signals { received.append(signal) } }
        inner.streams.value.first?.yield(.closed(reason: "server going away", by: .server))
        inner.streams.value.first?.finish()
        world.runUntilIdle()
        #expect(received.value == [.closed(reason: "server going away", by: .server)])
        #expect(
            entries.value.map(line) == [
                "+0 #1 d ws → open after=99",
                "+10 #1 d ws ← refused invalidToken",
                "+10 #2 d ws → open after=-",
                "+20 #2 d ws ← ready",
                "+20 #2 d ws ← closed: server going away",
            ])
    }

    @Test func reachabilityIsTheInnerTransports() async throws {
        let world = try World(seed: 1)
        let inner = world.makeTransport()
        world.network.setOnline(false)
        let transport = TapeRecordingTransport(wrapping: inner, runtime: world) { _ in }
        var iterator = transport.reachability().makeAsyncIterator()
        #expect(await iterator.next() == false)
    }
}
