import Benchmark
import ChatSDK
import ChatSimulation
import Synchronization
import Workbench

// Benchmarks of the send path and of watchers (issues 2 and 3), through the
// public APIs, in the deterministic embedded world, as the tests drive it.
//
//     cd Benchmarks && swift package benchmark
//
// Targets (issue 3): send end to end ≤ 100 µs median; one incoming message
// updating 1,000 watchers ≤ 20 ms; on a 100,000-message cache, first
// emission of `watchItems` ≤ 5 ms and each `loadMore` page ≤ 5 ms; resident
// memory ≤ 60 MB. Issue 2: 10,000 `send` lines ≤ 2 s (see
// scripts/bench-sends.sh for the whole binary).
//
// CHATBENCH_CACHE_MESSAGES changes the size of the large cache (100,000).

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident],
        timeUnits: .microseconds,
        warmupIterations: 5,
        maxDuration: .seconds(10),
        maxIterations: 2_000)

    Benchmark("Send end to end (1 items watcher)") { benchmark in
        let fixture = SendFixture.shared
        for _ in benchmark.scaledIterations {
            blackHole(fixture.sendOne())
        }
    }

    Benchmark("Incoming message, 1000 items watchers", configuration: .init(maxIterations: 300)) { benchmark in
        let fixture = WatchersFixture.shared
        for _ in benchmark.scaledIterations {
            fixture.agentSays()
        }
    }

    Benchmark("watchItems first emission (100k cache)", configuration: .init(maxIterations: 300)) { benchmark in
        let fixture = LargeCacheFixture.shared
        benchmark.startMeasurement()
        let watcher = fixture.firstEmission()
        benchmark.stopMeasurement()
        fixture.stop(watcher)
    }

    Benchmark("loadMore page (100k cache, 50 pages per watcher)", configuration: .init(maxIterations: 1_000)) { benchmark in
        let fixture = LargeCacheFixture.shared
        benchmark.startMeasurement()
        fixture.loadMore()
        benchmark.stopMeasurement()
    }

    Benchmark("Script: 1000 send lines", configuration: .init(
        metrics: [.wallClock, .peakMemoryResident], timeUnits: .milliseconds, maxIterations: 20)) { benchmark in
        benchmark.startMeasurement()
        runScript(sends: 1_000, watchers: [])
        benchmark.stopMeasurement()
    }

    Benchmark("Script: 1000 send lines, watch items + watch conversations", configuration: .init(
        metrics: [.wallClock, .peakMemoryResident], timeUnits: .milliseconds, maxIterations: 20)) { benchmark in
        benchmark.startMeasurement()
        runScript(sends: 1_000, watchers: ["watch items c1", "watch conversations"])
        benchmark.stopMeasurement()
    }
}

// MARK: Fixtures

/// A client signed in as alice, on a new world.
func makeClient(_ world: World) -> ChatClient {
    var configuration = world.clientConfiguration()
    configuration.cacheMode = .memory
    return ChatClient(configuration: configuration, tokenProvider: SimulatedTokenProvider(world: world))
}

/// Counts a watcher's emissions and keeps the last one.
final class Consumer<Value: Sendable>: Sendable {
    let state = Mutex<(count: Int, last: Response<Value>?)>((0, nil))
    let task = Mutex<Task<Void, Never>?>(nil)

    init(_ watcher: Watcher<Value>, in world: World) {
        let task = world.spawn {
            do { for try await response in watcher { self.state.withLock { $0 = ($0.count + 1, response) } } } catch {}
        }
        self.task.withLock { $0 = task }
    }

    var count: Int { state.withLock { $0.count } }
    var last: Response<Value>? { state.withLock { $0.last } }
    func cancel() { task.withLock { $0?.cancel() } }
}

/// A conversation on the server, with one `watchItems` watching it.
final class SendFixture: Sendable {
    static let shared = SendFixture()
    let world: World
    let client: ChatClient
    let conversationId: String
    let items: Consumer<PaginatedList<Message>>

    init() {
        world = try! World(seed: 1)
        client = makeClient(world)
        let client = self.client
        _ = world.run { try await client.setCurrentUser(userId: "alice") }
        conversationId = try! world.run { try await client.startConversation() }!.get().id
        items = Consumer(client.watchItems(ofConversationWithId: conversationId), in: world)
        world.runUntilIdle()
        _ = sendOne()
    }

    /// Sends one message and runs the world until it is sent and every
    /// realtime event about it has been handled.
    func sendOne() -> Message? {
        let client = self.client
        let id = conversationId
        let message = try? world.run { try await client.sendMessage(.text("hello"), in: id) }?.get()
        precondition(items.last?.data.elements.first?.state == .sent, "the message is not sent")
        return message
    }
}

/// One conversation watched by 1,000 `watchItems` watchers.
final class WatchersFixture: Sendable {
    static let shared = WatchersFixture()
    let world: World
    let conversationId: String
    let watchers: [Consumer<PaginatedList<Message>>]

    init() {
        let world = try! World(seed: 2)
        self.world = world
        let client = makeClient(world)
        _ = world.run { try await client.setCurrentUser(userId: "alice") }
        let id = try! world.run { try await client.startConversation() }!.get().id
        conversationId = id
        _ = world.run { try await client.sendMessage(.text("hello"), in: id) }
        watchers = (0..<1_000).map { _ in Consumer(client.watchItems(ofConversationWithId: id), in: world) }
        world.runUntilIdle()
    }

    /// The agent says something; the world runs until every watcher has it.
    func agentSays() {
        let before = watchers[watchers.count - 1].count
        try! world.agentSay("How can I help?", in: conversationId)
        world.runUntilIdle()
        precondition(watchers[watchers.count - 1].count > before, "the last watcher did not emit")
    }
}

/// A conversation of 100,000 messages, all in the client's cache (they
/// arrived through realtime while the client was connected).
final class LargeCacheFixture: Sendable {
    static let shared = LargeCacheFixture()
    let world: World
    let client: ChatClient
    let conversationId: String
    let pager = Mutex<(consumer: Consumer<PaginatedList<Message>>?, pages: Int)>((nil, 0))

    init() {
        let size = Int(ProcessInfoLite.environment("CHATBENCH_CACHE_MESSAGES") ?? "") ?? 100_000
        world = try! World(seed: 3)
        client = makeClient(world)
        let client = self.client
        _ = world.run { try await client.setCurrentUser(userId: "alice") }
        let id = try! world.run { try await client.startConversation() }!.get().id
        conversationId = id
        // A watcher opens the realtime connection; it stops before the flood.
        _ = world.run { try await client.sendMessage(.text("hello"), in: id) }
        let opener = Consumer(client.watchConversations(), in: world)
        world.runUntilIdle()
        opener.cancel()
        world.runUntilIdle()
        var said = 1
        while said < size {
            for _ in 0..<min(1_000, size - said) {
                try! world.agentSay("message \(said)", in: id)
                said += 1
            }
            world.runUntilIdle()
        }
        let check = try! world.run { try await client.conversation(withId: id) }!.get()
        precondition(check?.messageCount == size, "the cache holds \(check?.messageCount ?? 0) messages, not \(size)")
    }

    /// Starts a `watchItems` and runs the world's executor until its first
    /// (cached) emission, before the server answers.
    func firstEmission() -> Consumer<PaginatedList<Message>> {
        let consumer = Consumer(client.watchItems(ofConversationWithId: conversationId), in: world)
        world.simulationExecutor.drain()
        precondition(consumer.count == 1, "no first emission")
        return consumer
    }

    func stop(_ consumer: Consumer<PaginatedList<Message>>) {
        world.runUntilIdle()
        consumer.cancel()
        world.runUntilIdle()
    }

    /// One more page of the cache; a new watcher every 50 pages.
    func loadMore() {
        let (consumer, pages) = pager.withLock { state in
            if state.consumer == nil || state.pages == 50 {
                state.consumer?.cancel()
                let consumer = Consumer(client.watchItems(ofConversationWithId: conversationId), in: world)
                world.runUntilIdle()
                state = (consumer, 0)
            }
            state.pages += 1
            return (state.consumer!, state.pages)
        }
        guard let loadMore = consumer.last?.data.loadMore else { preconditionFailure("nothing more to load") }
        let before = consumer.count
        _ = world.run { try await loadMore() }
        precondition(consumer.count == before + 1 && consumer.last!.data.elements.count == (pages + 1) * 20, "loadMore did not emit a page")
    }
}

/// Runs a script of `sends` send lines through a workbench session.
func runScript(sends: Int, watchers: [String]) {
    let session = try! WorkbenchSession(options: WorkbenchOptions())
    for line in ["user set alice", "start conversation"] + watchers {
        precondition(session.execute(line).status == .ok, line)
    }
    for i in 1...sends {
        blackHole(session.execute("send c1 text \"message \(i)\""))
    }
}

/// getenv without Foundation.
enum ProcessInfoLite {
    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
