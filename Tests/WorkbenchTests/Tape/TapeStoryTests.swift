import ChatCore
import ChatSDK
import ChatSimulation
import ChatTestSupport
import Foundation
import Testing

@testable import Workbench

/// A short story recorded through the embedded world's network, then
/// replayed in a fresh world from its tape alone (the backend never asked).
@Suite struct TapeStoryTests {
    /// What the client ended with.
    struct Ending: Hashable {
        var conversations: [Conversation]
        var messages: [Message]
        var time: Instant
    }

    /// Alice watches her conversations, starts one and says hi, the agent
    /// answers, a second passes, she says bye. `step` runs a step's work;
    /// `agentSays` is the server's side of step 3.
    static func tell(
        world: World, transport: any ChatTransport, step: (Int, () throws -> Void) throws -> Void,
        agentSays: @escaping (String) throws -> Void
    ) throws -> Ending {
        var configuration = ChatClient.Configuration(
            apiKey: World.apiKey, transport: transport, runtime: ClientRuntime(world: world, seed: 42))
        configuration.cacheMode = .memory
        configuration.deviceId = "alice-device"
        let client = ChatClient(configuration: configuration, tokenProvider: SimulatedTokenProvider(world: world))
        let conversations = Locked<[Conversation]>([])
        let messages = Locked<[Message]>([])
        let id = Locked("")
        try step(1) {
            _ = world.run { try await client.setCurrentUser(userId: "alice") }
            let watcher = client.watchConversations()
            world.spawn {
                do { for try await response in watcher { conversations.withLock { $0 = response.data.elements } } } catch {}
            }
            world.runUntilIdle()
        }
        try step(2) {
            let started = world.run {
                let conversation = try await client.startConversation(title: "story")
                _ = try await client.sendMessage(.text("hi"), in: conversation.id)
                return conversation.id
            }
            id.withLock { $0 = (try? started?.get()) ?? "" }
            let watcher = client.watchItems(ofConversationWithId: id.value)
            world.spawn {
                do { for try await response in watcher { messages.withLock { $0 = response.data.elements } } } catch {}
            }
            world.runUntilIdle()
        }
        try step(3) {
            try agentSays(id.value)
            world.runUntilIdle()
        }
        try step(4) { world.advance(by: .seconds(1)) }
        try step(5) {
            _ = world.run { try await client.sendMessage(.text("bye"), in: id.value) }
            world.runUntilIdle()
        }
        return Ending(conversations: conversations.value, messages: messages.value, time: world.now)
    }

    @Test func aStoryReplaysFromItsTapeAlone() throws {
        // Recording: the simulated network behind the recording transport,
        // each step's traffic written with the step.
        let folder = try TemporaryFolder()
        let store = try RecordingStore(path: folder.url.appendingPathComponent("s.sqlite").path)
        let workbench = try WorkbenchSession(options: WorkbenchOptions())
        let session = try store.begin(RecordingStore.NewSession(name: "story", seed: 7, kind: .script))
        let world = try World(seed: 7)
        let traffic = Locked<[TrafficEntry]>([])
        let recording = TapeRecordingTransport(wrapping: world.makeTransport(), runtime: world) { traffic.append($0) }
        let recorded = try Self.tell(
            world: world, transport: recording,
            step: { number, body in
                try body()
                let step = RecordedStep(
                    number: number, input: "step \(number)", output: "", status: .ok, virtualTime: world.now.milliseconds,
                    wallTime: Date(), wallMicroseconds: 0, events: [])
                try store.append(step, traffic: workbench.redacted(traffic.take(leaving: [])), to: session.id)
            }, agentSays: { id in _ = try world.backend.agentSay(conversationId: id, text: "hello") })
        #expect(recorded.messages.map(\.preview) == ["bye", "hello", "hi"])
        #expect(recorded.messages.allSatisfy { $0.state == .sent })

        let tape = try store.traffic(of: session.id)
        #expect(Set(tape.compactMap(\.step)) == [1, 2, 3, 5])
        #expect(tape.contains { $0.entry.summary.hasSuffix("messageCreated") && $0.step == 3 })
        let text = tape.map { $0.entry.summary + TapeCoding.text($0.entry.body) }.joined(separator: "\n")
        #expect(text.contains("<token#1>") && !text.contains("at-") && !text.contains("rt-"), "\(text)")

        // Replay: a fresh world with the same seed whose backend is never
        // asked; the tape answers.
        let replayWorld = try World(seed: 7)
        let player = TapeTransport(tape: tape, runtime: replayWorld)
        let replayed = try Self.tell(
            world: replayWorld, transport: player,
            step: { number, body in
                player.beginStep(number)
                try body()
            }, agentSays: { _ in })
        #expect(player.divergences.isEmpty, "\(player.divergences)")
        #expect(player.unusedEntries.isEmpty, "\(player.unusedEntries.map(\.entry.summary))")
        #expect(replayed == recorded)
        #expect(replayWorld.network.requestCount == 0)
    }
}
