import ChatCore
import Foundation
import Testing

@testable import ChatSDK
@testable import Workbench

@Suite struct FollowedPageTests {
    private func page(_ ids: [String]) -> [Message] {
        ids.enumerated().map { position, id in
            Message(
                id: id, conversationId: "c", seq: Int64(position + 1), author: .user(id: "alice"), content: .text(id),
                replyTo: nil, createdAt: Date(timeIntervalSince1970: Double(position)), state: .sent)
        }
    }

    @Test func aPageFindsTheMessagesOfTheLastWhereverItMoved() {
        let last = page(["a", "b", "c", "d"])
        // A message arrived at the end, the oldest left.
        #expect(FollowedPage.positions(of: page(["b", "c", "d", "e"]), in: last) == [1, 2, 3, -1])
        // One arrived at the start.
        #expect(FollowedPage.positions(of: page(["z", "a", "b", "c"]), in: last) == [-1, 0, 1, 2])
        #expect(FollowedPage.positions(of: page(["a", "b", "c", "d"]), in: last) == [0, 1, 2, 3])
        #expect(FollowedPage.positions(of: page(["x", "y"]), in: last) == [-1, -1])
        #expect(FollowedPage.positions(of: page(["a", "b"]), in: []) == [-1, -1])
        #expect(FollowedPage.positions(of: [], in: last) == [])
        // Moved otherwise: only what lines up with the first is taken.
        #expect(FollowedPage.positions(of: page(["b", "a", "c"]), in: last) == [1, -1, -1])
    }

    @Test func sameComparesWholeMessages() {
        let one = page(["a", "b"])
        var other = page(["a", "b"])
        #expect(FollowedPage.same(one, 0, other, 0) && FollowedPage.same(one, 1, other, 1))
        #expect(!FollowedPage.same(one, 0, other, 1))
        other[1].state = .toBeSent
        #expect(!FollowedPage.same(one, 1, other, 1))
    }

    @Test func aRecordsVersionMovesWithWhatItShowsAndWasReported() throws {
        let session = try WorkbenchSession(options: WorkbenchOptions())
        let client = session.interpreter.current!
        let table = MessageTable()
        let index = table.add(id: "a", conversationId: "c", client: client, handle: "m1", number: 1)
        let start = table.version(at: index)
        table.setSeen(SeenMessage(page(["a"])[0]), at: index)
        let seen = table.version(at: index)
        #expect(seen != start)
        table.setReportedState(.sent, at: index)
        #expect(table.version(at: index) != seen)
        let reported = table.version(at: index)
        table.appendHistory((time: Instant(milliseconds: 0), state: "sent"), at: index)
        _ = table.seen(at: index)
        #expect(table.version(at: index) == reported)
        // The version sits in the record's padding: three strings, two
        // Int32 and three bytes were 64 bytes apart before it too.
        #expect(MemoryLayout<MessageTable.Record>.stride == 64)
    }

    /// A page shown again as it was is skipped, unless a record changed
    /// since (its version): then its view is taken from the page again.
    @Test func followTakesAMessageAgainWhenItsRecordChangedSince() throws {
        let session = try WorkbenchSession(options: WorkbenchOptions())
        let interpreter = session.interpreter
        let client = interpreter.current!
        let shown = page(["a", "b"])
        interpreter.follow(shown, client: client, conversationId: "c")
        let table = interpreter.objects.messages
        let a = try #require(table.index(ofID: "a"))
        let b = try #require(table.index(ofID: "b"))
        // Pages are newest first: handles go oldest first.
        #expect(b < a)
        #expect(table.seen(at: a) == SeenMessage(shown[0]))
        #expect(client.followed["c"]?.indexes == [a, b])

        // Something else wrote the record: the same page puts it back.
        table.setSeen(SeenMessage(page(["other"])[0]), at: a)
        interpreter.follow(shown, client: client, conversationId: "c")
        #expect(table.seen(at: a) == SeenMessage(shown[0]))

        // A reported state is shown over the page's.
        let offline = ChatError(.offline, "The device is offline")
        table.setReportedState(.failed(offline), at: b)
        interpreter.follow(shown, client: client, conversationId: "c")
        #expect(table.seen(at: b)?.state == .failed(offline))

        // The page moved by one: the new message gets a handle.
        var moved = page(["c", "a"])
        moved[1].seq = 2
        interpreter.follow(moved, client: client, conversationId: "c")
        let c = try #require(table.index(ofID: "c"))
        #expect(c > a)
        #expect(client.followed["c"]?.indexes == [c, a])
        #expect(table.seen(at: a) == SeenMessage(moved[1]))
    }
}
