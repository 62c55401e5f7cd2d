import ChatSDK
import ChatSimulation
import ChatTestSupport
import Synchronization

/// Collects a watcher's emissions as the world runs.
final class Collected<Value: Sendable>: Sendable {
    let responses = Locked<[Response<Value>]>([])
    let ended = Locked<(any Error)?>(nil)
    let task: Task<Void, Never>

    init(_ watcher: Watcher<Value>, in world: World) {
        let responses = self.responses
        let ended = self.ended
        task = world.spawn {
            do { for try await response in watcher { responses.withLock { $0.append(response) } } } catch { ended.withLock { $0 = error } }
        }
    }

    var all: [Response<Value>] { responses.withLock { $0 } }
    var last: Response<Value>? { all.last }
    var error: ChatError? { ended.withLock { $0 as? ChatError } }
}

/// A world with one client whose provider plays the app's backend.
final class Fixture: Sendable {
    let world: World
    let provider: SimulatedTokenProvider
    let client: ChatClient
    let events: Locked<[ChatEvent]>

    init(
        seed: UInt64 = 1, pageSize: Int = 20, apiKey: String = World.apiKey, autoResend: Bool = true,
        diagnostics: ChatClient.Diagnostics? = nil, deviceId: String? = nil,
        transport wrap: (World, any ChatTransport) -> any ChatTransport = { $1 }
    ) throws {
        world = try World(seed: seed)
        provider = SimulatedTokenProvider(world: world)
        var configuration = ChatClient.Configuration(apiKey: apiKey, transport: wrap(world, world.makeTransport()), runtime: world)
        configuration.cacheMode = .memory
        configuration.pageSize = pageSize
        configuration.autoResend = autoResend
        configuration.diagnostics = diagnostics
        configuration.deviceId = deviceId
        client = ChatClient(configuration: configuration, tokenProvider: provider)
        let events = Locked<[ChatEvent]>([])
        self.events = events
        let stream = client.events()
        world.spawn { for await event in stream { events.withLock { $0.append(event) } } }
        world.runUntilIdle()
    }

    /// Runs an SDK call to completion; throws what it threw.
    @discardableResult
    func call<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) throws -> T {
        guard let result = world.run(operation) else { throw StillPending() }
        return try result.get()
    }

    var sessionStates: [SessionState] {
        events.withLock { $0.compactMap { if case .sessionChanged(let s) = $0 { s } else { nil } } }
    }

    struct StillPending: Error {}
}

func chatError<T>(_ body: () throws -> T) -> ChatError? {
    do {
        _ = try body()
        return nil
    } catch { return error as? ChatError }
}
