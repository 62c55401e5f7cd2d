import ChatBackend
import ChatCore
import ChatSimulation
import ChatTestSupport
import Foundation
import Testing

@testable import ChatSDK

/// C1, C4: a client is a device with its own id, push token and cache
/// folder; a shut-down client does nothing more.
@Suite struct DeviceTests {
    @Test func aShutDownClientRefusesEveryCallWithClientShutDown() throws {
        let f = try Fixture()
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        let conversation = try f.call { try await f.client.startConversation(title: "before") }
        _ = f.world.run { await f.client.shutdown() }
        let calls: [@Sendable () async throws -> Void] = [
            { _ = try await f.client.startConversation(title: "after") },
            { _ = try await f.client.sendMessage(.text("hi"), in: conversation.id) },
            { try await f.client.setCurrentUser(userId: "bob") },
            { _ = try await f.client.loginAnonymous() },
            { try await f.client.registerPushToken("apns-1") },
            { try await f.client.logout() },
            { _ = try await f.client.conversation(withId: conversation.id) },
        ]
        for call in calls {
            #expect(chatError { try f.call(call) }?.code == .clientShutDown)
        }
        let watcher = Collected(f.client.watchConversations(), in: f.world)
        f.world.runUntilIdle()
        #expect(watcher.error?.code == .clientShutDown)
        let ended = Locked(false)
        let events = f.client.events()
        f.world.spawn {
            for await _ in events {}
            ended.withLock { $0 = true }
        }
        f.world.runUntilIdle()
        #expect(ended.value, "the events of a shut-down client end at once")
        #expect(f.world.backend.conversations(userId: "alice").isEmpty, "nothing was sent")
    }

    @Test func aPushTokenIsRegisteredReplacedAndRemovedAndLogoutRemovesIt() throws {
        let f = try Fixture()
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        #expect(chatError { try f.call { try await f.client.registerPushToken("") } }?.code == .invalidArgument)
        try f.call { try await f.client.registerPushToken("apns-1") }
        let device = f.client.deviceId
        #expect(f.world.backend.pushSubscriptions(userId: "alice").map { [$0.deviceId, $0.pushToken] } == [[device, "apns-1"]])
        try f.call { try await f.client.registerPushToken("apns-2") }
        #expect(f.world.backend.pushSubscriptions(userId: "alice").map(\.pushToken) == ["apns-2"])
        try f.call { try await f.client.unregisterPushToken() }
        #expect(f.world.backend.pushSubscriptions(userId: "alice").isEmpty)
        // A local clear leaves the token on the server (A4); logout removes it (A9).
        try f.call { try await f.client.registerPushToken("apns-3") }
        _ = f.world.run { await f.client.clearCurrentUser() }
        #expect(f.world.backend.pushSubscriptions(userId: "alice").map(\.pushToken) == ["apns-3"])
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        try f.call { try await f.client.registerPushToken("apns-4") }
        try f.call { try await f.client.logout() }
        #expect(f.world.backend.pushSubscriptions(userId: "alice").isEmpty)
        #expect(chatError { try f.call { try await f.client.registerPushToken("apns-5") } }?.code == .notAuthenticated)
    }

    @Test func theDeviceIdIsGeneratedOncePerInstallAndKeptBesideTheCache() throws {
        let world = try World(seed: 1)
        let folder = try TemporaryFolder()
        let other = try TemporaryFolder()
        func client(_ folder: String, _ mode: ChatClient.CacheMode = .disk) -> ChatClient {
            var configuration = ChatClient.Configuration(apiKey: World.apiKey, transport: world.makeTransport(), runtime: world)
            configuration.cacheDirectory = folder
            configuration.cacheMode = mode
            return ChatClient(configuration: configuration)
        }
        let first = client(folder.url.path).deviceId
        #expect(first.hasPrefix("device-") && first != "device-1")
        #expect(client(folder.url.path).deviceId == first, "the same install keeps its id")
        #expect(client(other.url.path).deviceId != first, "another install has its own")
        #expect(DeviceIdentity.stored(in: folder.url.path) == first)
        // Without a disk cache nothing is written.
        let memory = try TemporaryFolder()
        _ = client(memory.url.path, .memory)
        #expect(DeviceIdentity.stored(in: memory.url.path) == nil)
        // An id the app gives wins.
        var configuration = ChatClient.Configuration(apiKey: World.apiKey, transport: world.makeTransport(), runtime: world)
        configuration.deviceId = "phone-7"
        #expect(ChatClient(configuration: configuration).deviceId == "phone-7")
    }

    @Test func theCacheFolderDefaultsToThePlatformsDataFolder() {
        #expect(DeviceIdentity.defaultDirectory(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/u"]) == "/data/ChatSDK")
        #expect(DeviceIdentity.defaultDirectory(environment: ["HOME": "/home/u"]) == "/home/u/.local/share/ChatSDK")
        #expect(
            DeviceIdentity.defaultDirectory(environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/u"])
                == "/home/u/.local/share/ChatSDK",
            "a relative XDG_DATA_HOME is ignored, as the XDG specification says")
        #expect(DeviceIdentity.defaultDirectory(environment: [:]) == nil)
        #expect(ChatClient.Configuration.defaultCacheDirectory != nil)
    }

    @Test func aDiskCacheThatCannotBeUsedSaysSoAndTheClientReportsMemory() throws {
        let world = try World(seed: 1)
        let folder = try TemporaryFolder()
        // The cache folder is a file: nothing can be made in it.
        let blocked = folder.url.appendingPathComponent("blocked").path
        _ = FileManager.default.createFile(atPath: blocked, contents: Data("x".utf8))
        var configuration = ChatClient.Configuration(apiKey: World.apiKey, transport: world.makeTransport(), runtime: world)
        configuration.cacheDirectory = blocked
        let warnings = Locked<[String]>([])
        configuration.onEvent = { event in if case .warning(let text) = event { warnings.withLock { $0.append(text) } } }
        let client = ChatClient(configuration: configuration, tokenProvider: SimulatedTokenProvider(world: world))
        #expect(client.cacheMode == .disk)
        _ = world.run { try await client.setCurrentUser(userId: "alice") }
        #expect(client.cacheMode == .memory)
        #expect(warnings.value.contains { $0.contains("carrying on without a disk cache") })
        #expect(warnings.value.contains { $0.contains("the device id cannot be kept") })
        // Without a folder at all, the client says so too: never silently.
        var none = ChatClient.Configuration(apiKey: World.apiKey, transport: world.makeTransport(), runtime: world)
        none.cacheDirectory = nil
        let noneWarnings = Locked<[String]>([])
        none.onEvent = { event in if case .warning(let text) = event { noneWarnings.withLock { $0.append(text) } } }
        let second = ChatClient(configuration: none, tokenProvider: SimulatedTokenProvider(world: world))
        _ = world.run { try await second.setCurrentUser(userId: "alice") }
        #expect(second.cacheMode == .memory)
        #expect(
            noneWarnings.value == [
                "there is no cache folder (cacheDirectory is nil and the platform has none); carrying on without a disk cache"
            ])
    }
}
