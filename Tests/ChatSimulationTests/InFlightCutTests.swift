import ChatCore
import ChatSDK
import ChatSimulation
import Synchronization
import Testing

/// Cutting the network with requests on the wire (`net offline|drop
/// --in-flight`, issue 29): each request is lost before the server commits
/// it or after (its answer lost), fails in its client as a lost connection,
/// and the outbox's resend is de-duplicated by the server.
@Suite struct InFlightCutTests {
    /// Alice's client with one message sent, and a second one ("B") sent
    /// with the world holding work in flight, `into` its trip.
    struct OnTheWire {
        let world: World
        let client: ChatClient
        let conversation: String
        let items: Recorder<PaginatedList<Message>>

        init(into: Duration) throws {
            world = try World(seed: 1)
            client = makeClient(world, provider: SimulatedTokenProvider(world: world))
            let client = client
            _ = world.run { try await client.setCurrentUser(userId: "alice") }
            let conversation = try #require(try world.run { try await client.startConversation() }?.get()).id
            self.conversation = conversation
            items = Recorder(client.watchItems(ofConversationWithId: conversation), in: world)
            _ = world.run { try await client.sendMessage(.text("A"), in: conversation) }
            world.holdsInFlight = true
            world.spawn { _ = try? await client.sendMessage(.text("B"), in: conversation) }
            world.runUntilIdle()
            world.advance(by: into)
        }

        /// What the server holds of the conversation.
        var onServer: [String] {
            ((try? world.backend.messages(conversationId: conversation)) ?? []).map { message in
                if case .text(let text) = message.content { text } else { "?" }
            }
        }
        /// The state of "B" in the client.
        var stateOfB: SendState? { items.last?.data.elements.first { $0.preview == "B" }?.state }

        /// Runs the world on as `runUntilIdle` does outside a race.
        func runOn() {
            world.holdsInFlight = false
            world.runUntilIdle()
        }
    }

    @Test func aCutBeforeTheCommitLosesTheRequestUntilTheOutboxSendsItAgain() throws {
        let wire = try OnTheWire(into: .milliseconds(10))
        #expect(wire.world.network.conditions.requestsInFlight() == 1)
        wire.world.network.dropAll()
        let lost = wire.world.network.conditions.cutInFlight(at: .beforeCommit, cause: "net drop")
        #expect(lost.map(\.name) == ["sendMessage"] && lost.map(\.fate) == [.beforeCommit])
        wire.runOn()
        #expect(wire.onServer == ["A"], "the server never got it")
        #expect(wire.stateOfB == .toBeSent, "a lost connection is retryable")
        wire.world.settle()
        #expect(wire.onServer == ["A", "B"])
        #expect(wire.stateOfB == .sent)
    }

    @Test func aCutAfterTheCommitLosesTheAnswerAndTheResendIsNotDoubled() throws {
        let wire = try OnTheWire(into: .milliseconds(10))
        wire.world.network.setOnline(false)
        let lost = wire.world.network.conditions.cutInFlight(at: .afterCommit, cause: "net offline")
        #expect(lost.map(\.name) == ["sendMessage"] && lost.map(\.fate) == [.afterCommit])
        wire.runOn()
        #expect(wire.onServer == ["A", "B"], "the server did it")
        #expect(wire.stateOfB == .toBeSent, "its answer was lost: the client does not know")
        wire.world.network.setOnline(true)
        wire.world.settle()
        #expect(wire.onServer == ["A", "B"], "the resend is de-duplicated by the message's id")
        #expect(wire.stateOfB == .sent)
        #expect(wire.items.last?.data.elements.filter { $0.preview == "B" }.count == 1)
    }

    @Test func aRequestTheServerAlreadyDidIsLostAfterItsCommitWhateverTheCut() throws {
        // 30 ms in: past the server (20 ms and up to 5 of jitter), its
        // answer on the way back.
        let wire = try OnTheWire(into: .milliseconds(30))
        #expect(wire.onServer == ["A", "B"])
        wire.world.network.dropAll()
        let lost = wire.world.network.conditions.cutInFlight(at: .beforeCommit, cause: "net drop")
        #expect(lost.map(\.fate) == [.afterCommit])
        wire.runOn()
        wire.world.settle()
        #expect(wire.onServer == ["A", "B"] && wire.stateOfB == .sent)
    }

    @Test func withoutACutTheRequestGoesOnAsBefore() throws {
        let wire = try OnTheWire(into: .milliseconds(10))
        wire.world.network.dropAll()
        wire.runOn()
        #expect(wire.world.network.conditions.requestsInFlight() == 0)
        #expect(wire.onServer == ["A", "B"] && wire.stateOfB == .sent)
        #expect(wire.world.network.conditions.cutInFlight(at: .afterCommit, cause: "net drop").isEmpty)
    }

    @Test func aTripCutOnceKeepsItsFate() {
        let trip = WireTrip(name: "sendMessage", device: nil)
        trip.arrive()
        #expect(trip.cut(at: .beforeCommit, cause: "net drop") == .afterCommit)
        #expect(trip.cut(at: .beforeCommit, cause: "net drop") == nil)
        #expect(trip.cutSoFar?.error.kind == .reset)
    }
}
