import ChatSDK
import ChatSDKTestKit
import Testing

/// The sample app's view model, tested as an app team would test theirs:
/// the chat service is ChatSDKTestKit's world, and only its public API is
/// used. No test pumps the world: awaited calls complete by themselves.
@Suite struct SupportChatModelTests {
    /// A model signed in as alice, following its conversation inside the world.
    func openModel(_ world: ChatTestWorld) async throws -> SupportChatModel {
        let model = SupportChatModel(client: world.makeClient())
        try await model.open(userId: "alice")
        world.start { await model.follow() }
        await world.settle()
        return model
    }

    @Test func aSentMessageShowsAsSent() async throws {
        let world = try ChatTestWorld()
        try await world.run {
            let model = try await openModel(world)
            try await model.send("Hello")
            await world.settle()
            #expect(model.lines == ["me: Hello (sent)"])
        }
    }

    @Test func theAgentsAnswerShowsUp() async throws {
        let world = try ChatTestWorld()
        try await world.run {
            let model = try await openModel(world)
            try await model.send("Hello")
            try await world.agent.say("How can I help?", in: try #require(model.conversationId))
            await world.settle()
            #expect(model.lines == ["me: Hello (sent)", "agent: How can I help?"])
        }
    }

    @Test func offlineAMessageWaitsAndGoesOnceBackOnline() async throws {
        let world = try ChatTestWorld()
        try await world.run {
            let model = try await openModel(world)
            await world.network.goOffline()
            try await model.send("Anyone there?")
            await world.settle()
            #expect(model.lines == ["me: Anyone there? (toBeSent)"])
            await world.network.goOnline()
            await world.settle()
            #expect(model.lines == ["me: Anyone there? (sent)"])
        }
    }

    @Test func aLostRequestIsRetriedByTheSDK() async throws {
        let world = try ChatTestWorld()
        try await world.run {
            let model = try await openModel(world)
            await world.network.failNext(1, with: .reset)
            try await model.send("Hello")
            await world.settle()
            #expect(model.lines == ["me: Hello (sent)"])
        }
    }

    @Test func theSameSeedGivesTheSameRun() async throws {
        func run() async throws -> [String] {
            let world = try ChatTestWorld(seed: 5)
            return try await world.run {
                let model = try await openModel(world)
                try await model.send("one")
                try await world.agent.say("two", in: try #require(model.conversationId))
                try await model.send("three")
                await world.settle()
                return model.lines + [model.conversationId ?? "", "\(world.now)"]
            }
        }
        #expect(try await run() == run())
    }
}
