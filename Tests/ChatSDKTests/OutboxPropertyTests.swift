import ChatSDK
import ChatSimulation
import Foundation
import Testing

/// D6/D7: whatever happens to the network and the app, no message is lost or
/// duplicated, and each conversation's messages reach the server in the
/// order they were sent (failed ones, retried later, excepted).
@Suite struct OutboxPropertyTests {
    final class App: @unchecked Sendable {
        // Used only on the test's thread, which also pumps the world.
        let world: World
        let folder: String
        let provider: SimulatedTokenProvider
        var client: ChatClient

        init(world: World, folder: String) {
            self.world = world
            self.folder = folder
            provider = SimulatedTokenProvider(world: world)
            client = App.launch(world: world, folder: folder, provider: provider)
        }

        static func launch(world: World, folder: String, provider: SimulatedTokenProvider) -> ChatClient {
            var configuration = ChatClient.Configuration(apiKey: World.apiKey, transport: world.makeTransport(), runtime: world)
            configuration.cacheMode = .disk
            configuration.cacheDirectory = folder
            let client = ChatClient(configuration: configuration, tokenProvider: provider)
            world.runUntilIdle()
            return client
        }

        func call<T: Sendable>(_ operation: @escaping @Sendable (ChatClient) async throws -> T) -> T? {
            let client = self.client
            return try? world.run { try await operation(client) }?.get()
        }

        func restart() {
            _ = call { await $0.shutdown() }
            client = App.launch(world: world, folder: folder, provider: provider)
            _ = call { try await $0.setCurrentUser(userId: "alice") }
        }
    }

    @Test(arguments: 1...12)
    func randomFaultsNeverLoseDuplicateOrReorder(seed: UInt64) throws {
        let world = try World(seed: seed)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(seed)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let app = App(world: world, folder: folder)
        _ = app.call { try await $0.setCurrentUser(userId: "alice") }
        let conversations = (0..<2).compactMap { _ in app.call { try await $0.startConversation() }?.id }
        #expect(conversations.count == 2)

        var sent: [String: [String]] = [:]
        var random = SeededRandom(seed: seed &* 7919)
        for step in 0..<80 {
            switch random.next() % 10 {
            case 0: world.network.setOnline(false)
            case 1: world.network.setOnline(true)
            case 2: world.network.failNext(1)
            case 3: world.network.dropAll()
            case 4: app.restart()
            case 5: world.advance(by: .seconds(Int64(random.next() % 5)))
            default:
                let conversation = conversations[Int(random.next() % 2)]
                if let message = app.call({ try await $0.sendMessage(.text("s\(seed)-\(step)"), in: conversation) }) {
                    sent[conversation, default: []].append(message.id)
                }
            }
            world.runUntilIdle()
        }
        // Back online. Messages that failed (a request lost on the way) are
        // the only ones retried: they may arrive after later ones.
        world.network.setOnline(true)
        world.advance(by: .seconds(60))
        let failed = Set(sent.values.joined().filter { id in
            if case .failed? = app.call({ try await $0.message(withId: id) })??.state { return true }
            return false
        })
        for _ in 0..<5 {
            for id in sent.values.joined() {
                if case .failed? = app.call({ try await $0.message(withId: id) })??.state {
                    _ = app.call { try await $0.retrySending(itemId: id) }
                }
            }
            world.advance(by: .seconds(60))
        }
        for (conversation, ids) in sent {
            let onServer = try world.backend.messages(conversationId: conversation).map(\.id)
            #expect(Set(onServer) == Set(ids), "lost or extra messages in \(conversation)")
            #expect(onServer.count == Set(onServer).count, "duplicates in \(conversation)")
            let inOrder = ids.filter { !failed.contains($0) }
            #expect(onServer.filter { !failed.contains($0) } == inOrder, "order broken in \(conversation)")
            for id in ids {
                #expect(app.call({ try await $0.message(withId: id) })??.state == .sent, "\(id) is not sent")
            }
        }
    }
}
