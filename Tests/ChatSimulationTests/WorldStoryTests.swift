import ChatSDK
import ChatSimulation
import Synchronization
import Testing

/// Collects a watcher's emissions as they happen in the world.
final class Recorder<Value: Sendable>: Sendable {
    let responses = Mutex<[Response<Value>]>([])
    let error = Mutex<(any Error)?>(nil)
    var count: Int { responses.withLock { $0.count } }
    var last: Response<Value>? { responses.withLock { $0.last } }

    init(_ watcher: Watcher<Value>, in world: World) {
        world.spawn {
            do { for try await response in watcher { self.responses.withLock { $0.append(response) } } } catch {
                self.error.withLock { $0 = error }
            }
        }
    }
}

func makeClient(_ world: World, provider: SimulatedTokenProvider) -> ChatClient {
    var configuration = ChatClient.Configuration(apiKey: World.apiKey, transport: world.makeTransport(), runtime: world)
    configuration.cacheMode = .memory
    return ChatClient(configuration: configuration, tokenProvider: provider)
}

@Test func storyOfTheWalkingSkeleton() throws {
    let world = try World(seed: 7)
    let provider = SimulatedTokenProvider(world: world)
    let client = makeClient(world, provider: provider)

    _ = world.run { try await client.setCurrentUser(userId: "alice") }
    #expect(provider.calls == 0, "the provider is called lazily")

    let conversations = Recorder(client.watchConversations(), in: world)
    world.runUntilIdle()
    #expect(provider.calls == 1)
    #expect(conversations.last?.isDataFresh == true)
    #expect(conversations.last?.data.elements.isEmpty == true)

    let conversation = try #require(try world.run { try await client.startConversation(title: "Hello") }?.get())
    #expect(conversation.isLocal)
    #expect(conversations.last?.data.elements.map(\.id) == [conversation.id])

    let items = Recorder(client.watchItems(ofConversationWithId: conversation.id), in: world)
    let message = try #require(try world.run { try await client.sendMessage(.text("hi"), in: conversation.id) }?.get())
    #expect(items.last?.data.elements.first?.id == message.id)
    #expect(items.last?.data.elements.first?.state == .sent)
    #expect(try world.backend.messages(conversationId: conversation.id).count == 1)

    try world.backend.agentSay(conversationId: conversation.id, text: "Hello, how can I help?")
    world.runUntilIdle()
    #expect(items.last?.data.elements.map(\.preview) == ["Hello, how can I help?", "hi"])
    #expect(conversations.last?.data.elements.first?.isLocal == false)
}

@Test func sameSeedSameHistory() throws {
    func run(seed: UInt64) throws -> [String] {
        let world = try World(seed: seed)
        let log = Mutex<[String]>([])
        world.onTrace { time, trace in log.withLock { $0.append("\(time) \(trace)") } }
        let client = makeClient(world, provider: SimulatedTokenProvider(world: world))
        _ = world.run { try await client.setCurrentUser(userId: "alice") }
        let conversation = try world.run { try await client.startConversation() }!.get()
        for i in 0..<5 { _ = world.run { try await client.sendMessage(.text("m\(i)"), in: conversation.id) } }
        return log.withLock { $0 }
    }
    #expect(try run(seed: 3) == run(seed: 3))
    #expect(try run(seed: 3) != run(seed: 4))
}
