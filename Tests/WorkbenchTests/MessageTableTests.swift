import ChatCore
import ChatSDK
import Testing

@testable import Workbench

@Suite struct MessageTableTests {
    /// A client object to file messages under (the table only keeps it).
    private func client() throws -> (WorkbenchSession, ClientObject) {
        let session = try WorkbenchSession(options: WorkbenchOptions())
        return (session, session.interpreter.current)
    }

    @Test func handlesNumbersAndIDsFindTheirMessage() throws {
        let (session, client) = try client()
        let table = MessageTable()
        table.add(id: "msg-a", conversationId: "c-1", client: client, handle: "m1", number: 1)
        table.add(id: "msg-b", conversationId: "c-1", client: client, handle: "hello", number: nil)
        // m2 and m3 were taken by other objects: the counter skipped them.
        table.add(id: "msg-c", conversationId: "c-2", client: client, handle: "m4", number: 4)
        #expect(table.count == 3)
        #expect(table.handles == ["m1", "hello", "m4"])
        #expect(table.index(ofID: "msg-c") == 2)
        #expect(table.index(ofID: "msg-z") == nil)
        #expect(table.index(ofHandle: "m1") == 0)
        #expect(table.index(ofHandle: "hello") == 1)
        #expect(table.index(ofHandle: "m4") == 2)
        for missing in ["m2", "m3", "m5", "m0", "m", "m04", "m+4", "x4", "m-1", "m99999999999999999999"] {
            #expect(table.index(ofHandle: missing) == nil, "\(missing)")
        }
        #expect(table.conversationId(at: 2) == "c-2")
        #expect(table.client(at: 1) === client)
        _ = session
    }

    @Test func manyMessagesAcrossChunksConversationsAndClients() throws {
        let (session, client) = try client()
        _ = session.execute("client new other")
        let other = try #require(session.interpreter.clients.last)
        #expect(other !== client)
        let table = MessageTable()
        let count = 2 * MessageTable.chunkSize + 10
        for i in 0..<count {
            table.add(
                id: "msg-\(i)", conversationId: "c-\(i % 3)", client: i % 2 == 0 ? client : other, handle: "m\(i + 1)", number: i + 1)
        }
        #expect(table.count == count)
        for i in [0, 1, MessageTable.chunkSize - 1, MessageTable.chunkSize, count - 1] {
            #expect(table.index(ofID: "msg-\(i)") == i)
            #expect(table.index(ofHandle: "m\(i + 1)") == i)
            #expect(table.id(at: i) == "msg-\(i)")
            #expect(table.conversationId(at: i) == "c-\(i % 3)")
            #expect(table.client(at: i) === (i % 2 == 0 ? client : other))
        }
        table.setSeen(
            SeenMessage(author: .system, content: .text("last"), replyTo: nil, state: .sent, isReadByProvider: false), at: count - 1)
        #expect(table.seen(at: count - 1)?.content == .text("last"))
        #expect(table.seen(at: count - 2) == nil)
    }

    @Test func whatWasSeenComesBackAsItWasSet() throws {
        let (session, client) = try client()
        let table = MessageTable()
        for i in 0..<6 { table.add(id: "msg-\(i)", conversationId: "c-1", client: client, handle: "m\(i + 1)", number: i + 1) }
        let failure = ChatError(.offline, "The device is offline")
        let seen: [SeenMessage] = [
            SeenMessage(author: .user(id: "alice"), content: .text("hi"), replyTo: nil, state: .toBeSent, isReadByProvider: false),
            SeenMessage(
                author: .provider(name: "agent"), content: .text("a longer text than fifteen bytes"), replyTo: "msg-0", state: .sent,
                isReadByProvider: true),
            SeenMessage(author: .system, content: .text(""), replyTo: nil, state: .sending, isReadByProvider: false),
            SeenMessage(
                author: .user(id: "bob"), content: .attachment(kind: .image, mimeType: "image/png", size: 42, fileName: "x.png"),
                replyTo: nil,
                state: .failed(failure), isReadByProvider: false),
            SeenMessage(
                author: .user(id: "bob"), content: .attachment(kind: .audio, mimeType: "audio/mpeg", size: 1, fileName: nil),
                replyTo: "msg-3",
                state: .sent, isReadByProvider: true),
        ]
        for (i, message) in seen.enumerated() { table.setSeen(message, at: i) }
        for (i, message) in seen.enumerated() { #expect(table.seen(at: i) == message) }
        #expect(table.seen(at: 5) == nil)
        // Seeing a message again replaces all of it (an attachment, an error).
        table.setSeen(seen[0], at: 3)
        #expect(table.seen(at: 3) == seen[0])
        table.setSeen(nil, at: 3)
        #expect(table.seen(at: 3) == nil)
        _ = session
    }

    @Test func reportedStatesAndHistoriesArePerMessage() throws {
        let (session, client) = try client()
        let table = MessageTable()
        table.add(id: "msg-a", conversationId: "c-1", client: client, handle: "m1", number: 1)
        table.add(id: "msg-b", conversationId: "c-1", client: client, handle: "m2", number: 2)
        #expect(table.reportedState(at: 0) == nil)
        let failure = ChatError(.networkFailure, "lost")
        table.setReportedState(.failed(failure), at: 1)
        table.setReportedState(.sending, at: 0)
        #expect(table.reportedState(at: 0) == .sending)
        #expect(table.reportedState(at: 1) == .failed(failure))
        table.setReportedState(.sent, at: 1)
        #expect(table.reportedState(at: 1) == .sent)
        let start = Instant(milliseconds: 1_000)
        table.appendHistory((start, .toBeSent), at: 1)
        table.appendHistory((Instant(milliseconds: 1_050), .sent), at: 1)
        #expect(table.history(at: 0).isEmpty)
        #expect(table.history(at: 1).map(\.state) == [.toBeSent, .sent])
        #expect(table.history(at: 1).map(\.time) == [start, Instant(milliseconds: 1_050)])
        _ = session
    }
}
