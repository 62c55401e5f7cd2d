internal import ChatCore
import ChatSDK
internal import ChatSimulation
import Foundation

/// The chat service in memory, for an app's tests: a backend, a simulated
/// network and a virtual clock, under the test's control. The same world
/// the chatbench workbench explores, deterministic for a seed.
///
/// A test makes its SDK calls inside ``run(isolation:_:)``, and an awaited
/// call completes by itself: the world runs on a thread of its own
/// whenever the SDK has work queued, until no work is in flight.
/// Time moves only as far as that work needs (network latency): a timer
/// (a token's expiry, a retry's back-off) fires when the test calls
/// ``advance(by:)`` or ``settle()``. Call ``settle()`` before asserting on
/// what arrives by itself (the agent's answer, a resent message).
///
/// ```swift
/// @Test func theAgentAnswers() async throws {
///     let world = try ChatTestWorld()
///     try await world.run {
///         let client = world.makeClient()
///         try await client.setCurrentUser(userId: "alice")
///         let conversation = try await client.startConversation()
///         _ = try await client.sendMessage(.text("Hello"), in: conversation.id)
///         try await world.agent.say("How can I help?", in: conversation.id)
///         await world.settle()
///         #expect(try await client.conversation(withId: conversation.id)?.lastMessagePreview == "How can I help?")
///     }
/// }
/// ```
///
/// Code that consumes a watcher (a view model's `for try await` loop)
/// should run through ``start(_:)``: it then runs inside the world, and
/// what it saw is in place when ``settle()`` returns.
public final class ChatTestWorld: Sendable {
    let driver: WorldDriver
    var world: World { driver.world }

    /// The app every client of the world uses (its API key).
    public static let apiKey = World.apiKey

    /// A new world; the same `seed` gives the same ids, jitter and order.
    public init(seed: UInt64 = 1) throws {
        driver = WorldDriver(world: try World(seed: seed))
    }

    deinit { driver.stop() }

    /// The virtual clock's time now.
    public var now: Date { Date(world.now) }

    // MARK: Clients

    /// A configuration for a client of this world: its network, clock and
    /// executor, the cache in memory, this device id. Change what the test
    /// needs (`pageSize`, `autoResend`, `onEvent`) before making the client.
    public func clientConfiguration(deviceId: String = "device-1") -> ChatClient.Configuration {
        var configuration = world.clientConfiguration()
        configuration.deviceId = deviceId
        return configuration
    }

    /// A token provider playing the app's backend: it mints tokens for any
    /// user the client is set to (`setCurrentUser(userId:)`).
    public var tokenProvider: any SessionTokenProvider { SimulatedTokenProvider(world: world) }

    /// A client of this world with ``tokenProvider``, ready for
    /// `setCurrentUser(userId:)`; the other sign-in methods work too (see
    /// ``credentials``).
    public func makeClient(deviceId: String = "device-1") -> ChatClient {
        ChatClient(configuration: clientConfiguration(deviceId: deviceId), tokenProvider: tokenProvider)
    }

    // MARK: Time

    /// Moves the virtual clock forward by `duration`, firing every timer due
    /// on the way in order (token refresh, typing expiry, retries), then
    /// runs until no work is in flight.
    public func advance(by duration: Duration) async {
        await driver.perform { $0.advance(by: duration) }
    }

    /// Runs until no work is in flight and no recovery is pending (the SDK
    /// reconnecting, its outbox retrying), moving the clock only as far as
    /// that needs, at most `limit`. Await it before asserting on what
    /// arrives by itself.
    public func settle(limit: Duration = .seconds(3600)) async {
        await driver.perform { _ = $0.settle(limit: limit) }
    }

    /// Runs `body` inside the world: the SDK calls it makes, and the SDK's
    /// work for them, run on the world's executor, one job at a time, so
    /// the same test gives the same order of everything, every time. An
    /// awaited call completes by itself (the world runs whenever work is
    /// queued); `advance`, `settle` and the other side work from inside.
    /// Make every SDK call of a test inside `run`: outside it, calls still
    /// complete, but part of the SDK's work hops to the thread pool, so the
    /// order of what happens is no longer the world's alone.
    ///
    /// A call that waits for a timer (a token provider that answers late,
    /// the network coming back) completes only when the test moves time on
    /// (`advance`, `settle`), so await it from a ``start(_:)`` task instead.
    public func run<T, E: Error>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws(E) -> T
    ) async throws(E) -> T {
        try await withTaskExecutorPreference(world.simulationExecutor, isolation: isolation, operation: body)
    }

    /// Starts `operation` inside the world (on its executor), for app code
    /// that runs for a while, such as a view model consuming a watcher:
    /// what it does is done when ``settle()`` returns. Cancel the task to
    /// stop it.
    @discardableResult
    public func start(_ operation: sending @escaping @isolated(any) () async -> Void) -> Task<Void, Never> {
        world.spawn(operation)
    }

    // MARK: The other side, the network, credentials

    /// The agent answering on the app's side, named `agent`.
    public var agent: TestAgent { TestAgent(driver: driver, name: "agent") }

    /// An agent of another name.
    public func agent(named name: String) -> TestAgent { TestAgent(driver: driver, name: name) }

    /// The device's network: offline, failures, latency, dropped connections.
    public var network: TestNetwork { TestNetwork(driver: driver) }

    /// The app's backend's credential operations: tokens expired or
    /// revoked, JWTs signed, access and session tokens issued.
    public var credentials: TestCredentials { TestCredentials(driver: driver) }
}
