import ChatCore
import Foundation
import GRDB
import Testing

@testable import ChatBackend

/// What the event log keeps for each event (issue 17: memory).
@Suite struct EventStorageTests {
    /// A `messageCreated` event names its message instead of holding a JSON
    /// copy of it, and catch-up still replays the message exactly.
    @Test func aMessageEventNamesItsMessage() throws {
        let world = try TestWorld()
        let pair = try world.tokens("alice")
        let (_, first) = try world.send("hello", id: "m1", in: "c1", token: pair.accessToken)
        var said: [WireMessage] = [first]
        // More than the decoder's memo of recent events holds: the replay
        // below reads them back from the database.
        for n in 0..<300 { said.append(try world.backend.agentSay(conversationId: "c1", text: "message \(n)")) }

        let kinds = try world.backend.dbQueue.read { db in
            try String.fetchAll(db, sql: "SELECT kind FROM event WHERE messageSeq IS NOT NULL ORDER BY userSeq")
        }
        #expect(kinds.count == said.count)
        #expect(kinds.allSatisfy { $0 == "messageCreated" })

        let replayed = world.backend.events(userId: "alice").compactMap { event -> WireMessage? in
            if case .messageCreated(let message) = event.kind { return message }
            return nil
        }
        #expect(replayed == said)
        #expect(world.backend.events(userId: "alice").count == 2 * said.count)
    }

    /// Two backends name their messages alike (the same conversation, the
    /// same seq): each replays its own, never what the other wrote last.
    @Test func backendsWithTheSameIdsReplayTheirOwnMessages() throws {
        let worlds = try [TestWorld(), TestWorld()]
        for (n, world) in worlds.enumerated() {
            let pair = try world.tokens("alice")
            try world.send("hello", id: "m1", in: "c1", token: pair.accessToken)
            try world.backend.agentSay(conversationId: "c1", text: "from backend \(n)")
        }
        for (n, world) in worlds.enumerated() {
            let texts = world.backend.events(userId: "alice").compactMap { event -> WireContent? in
                if case .messageCreated(let message) = event.kind { return message.content }
                return nil
            }
            #expect(texts == [.text("hello"), .text("from backend \(n)")])
        }
    }

    /// A `conversationUpdated` event is kept as a tagged array of the
    /// conversation's fields, and reads back whole, every field set or not.
    @Test func aConversationEventIsKeptCompact() throws {
        let full = WireConversation(
            id: "c1", title: "Knee \"pain\"", createdAt: Instant(milliseconds: 1), updatedAt: Instant(milliseconds: 2), lastSeq: 3,
            lastMessagePreview: "hi", providerTypingUntil: Instant(milliseconds: 4), providerReadSeq: 5)
        let bare = WireConversation(
            id: "c2", title: nil, createdAt: .simulationEpoch, updatedAt: .simulationEpoch, lastSeq: 0, lastMessagePreview: nil)
        for conversation in [full, bare] {
            let stored = try Backend.encode(StoredConversationUpdate(conversation: conversation))
            let keyed = try Backend.encode(WireEvent.Kind.conversationUpdated(conversation))
            #expect(stored.hasPrefix("[\"conversationUpdated\","))
            #expect(stored.utf8.count * 2 < keyed.utf8.count + 40)
            #expect(try Backend.decode(StoredConversationUpdate.self, from: stored).conversation == conversation)
        }
        // The array names every field of WireConversation, after its tag: a
        // field added to the wire must be added to the stored form too.
        let stored = try Backend.encode(StoredConversationUpdate(conversation: full))
        let fields = try JSONSerialization.jsonObject(with: Data(stored.utf8)) as? [Any]
        #expect(fields?.count == 1 + Mirror(reflecting: full).children.count)
        let world = try TestWorld()
        let pair = try world.tokens("alice")
        let (conversation, _) = try world.send("hello", id: "m1", in: "c1", token: pair.accessToken)
        let kind = try world.backend.dbQueue.read { db in try String.fetchOne(db, sql: "SELECT kind FROM event WHERE userSeq = 2") }
        #expect(kind == (try Backend.encode(StoredConversationUpdate(conversation: conversation))))
        #expect(world.backend.events(userId: "alice").last == WireEvent(userSeq: 2, kind: .conversationUpdated(conversation)))
        // A row written as keyed JSON (before) still reads back.
        try world.backend.dbQueue.write { db in
            try db.execute(
                sql: "UPDATE event SET kind = ? WHERE userSeq = 2",
                arguments: [try Backend.encode(WireEvent.Kind.conversationUpdated(conversation))])
        }
        #expect(world.backend.events(userId: "alice", afterUserSeq: 1) == [WireEvent(userSeq: 2, kind: .conversationUpdated(conversation))])
    }

    /// Events stored as JSON (as before the reference column) still replay.
    @Test func aMessageEventStoredAsJSONStillReplays() throws {
        let world = try TestWorld()
        let pair = try world.tokens("alice")
        let (_, message) = try world.send("hello", id: "m1", in: "c1", token: pair.accessToken)
        let json = try Backend.encode(WireEvent.Kind.messageCreated(message))
        try world.backend.dbQueue.write { db in
            try db.execute(
                sql: "UPDATE event SET kind = ?, messageConversationId = NULL, messageSeq = NULL WHERE userSeq = 1",
                arguments: [json])
        }
        #expect(world.backend.events(userId: "alice").first == WireEvent(userSeq: 1, kind: .messageCreated(message)))
    }

    /// A send appends its two events with consecutive userSeqs after the
    /// user's last (the second takes the first's plus one), and the
    /// conversation it reports is the row as its UPDATE left it.
    @Test func aSendAppendsTwoConsecutiveEventsWithTheUpdatedConversation() throws {
        let world = try TestWorld()
        let pair = try world.tokens("alice")
        try world.send("first", id: "m1", in: "c1", token: pair.accessToken)
        try world.backend.agentSay(conversationId: "c1", text: "between")
        let (conversation, message) = try world.send("second", id: "m2", in: "c1", token: pair.accessToken)
        #expect(message.seq == 3)
        #expect(conversation.lastSeq == 3)
        #expect(conversation.lastMessagePreview == "second")
        let events = world.backend.events(userId: "alice")
        #expect(events.map(\.userSeq) == [1, 2, 3, 4, 5, 6])
        #expect(events.suffix(2).map(\.kind) == [.messageCreated(message), .conversationUpdated(conversation)])
    }

    /// The conversation a message's event carries is the one the database
    /// then holds, every field of it: provider typing and read state kept
    /// by a user's message, typing cleared by the provider's.
    @Test func aMessagesConversationEventIsWhatTheDatabaseHolds() throws {
        let world = try TestWorld()
        let pair = try world.tokens("alice")
        try world.send("first", id: "m1", in: "c1", token: pair.accessToken)
        try world.backend.agentRead(conversationId: "c1")
        try world.backend.agentTyping(conversationId: "c1", isTyping: true)
        world.clock.advance(.seconds(1))
        let (sent, _) = try world.send("second", id: "m2", in: "c1", token: pair.accessToken)
        #expect(sent.providerTypingUntil != nil && sent.providerReadSeq == 1 && sent.lastSeq == 2)
        #expect(world.backend.conversations(userId: "alice") == [sent])
        #expect(world.backend.events(userId: "alice").last?.kind == .conversationUpdated(sent))

        world.clock.advance(.seconds(1))
        try world.backend.agentSay(conversationId: "c1", text: "an answer")
        let said = try #require(world.backend.conversations(userId: "alice").first)
        #expect(said.providerTypingUntil == nil && said.lastSeq == 3 && said.lastMessagePreview == "an answer")
        #expect(said.updatedAt > sent.updatedAt)
        #expect(world.backend.events(userId: "alice").last?.kind == .conversationUpdated(said))
    }
}
