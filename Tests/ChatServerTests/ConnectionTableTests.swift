import Testing

@testable import ChatServer

/// The connection caps as a policy, input by input (issue 26): which
/// connection closes when there are too many.
@Suite struct ConnectionTableTests {
    typealias Table = ConnectionTable<Int>

    @Test func theCapsComeFromTheOpenFileLimitWithHeadroom() {
        #expect(Table.Limits.derived(openFileLimit: 1024) == .init(maxConnections: 896, maxPerAddress: 448))
        #expect(Table.Limits.derived(openFileLimit: 256) == .init(maxConnections: 192, maxPerAddress: 96))
        #expect(Table.Limits.derived(openFileLimit: 20) == .init(maxConnections: 16, maxPerAddress: 8))
        #expect(Table.Limits.derived(openFileLimit: 65536).maxConnections == 65536 - 8192)
    }

    @Test func belowTheCapsEveryConnectionIsAdmitted() {
        var table = Table(limits: .init(maxConnections: 3, maxPerAddress: 3))
        #expect(table.admit(1, address: "a", now: 1) == .admit)
        #expect(table.admit(2, address: "b", now: 2) == .admit)
        #expect(table.admit(3, address: "a", now: 3) == .admit)
        #expect(table.count == 3)
        #expect(table.count(from: "a") == 2)
    }

    @Test func atTheCapTheLongestIdleOrSlowestReadingConnectionCloses() {
        var table = Table(limits: .init(maxConnections: 3, maxPerAddress: 3))
        _ = table.admit(1, address: "a", now: 0)
        _ = table.admit(2, address: "b", now: 0)
        _ = table.admit(3, address: "c", now: 0)
        table.set(1, .answering, now: 1) // busy: never chosen
        table.set(2, .readingRequest, now: 2) // trickling its head since 2
        table.set(3, .readingRequest, now: 5)
        #expect(table.admit(4, address: "d", now: 6) == .admitClosing(2))
        #expect(table.phase(of: 2) == nil)
        #expect(table.count == 3)
        // The longest in its phase goes first: 3 has been reading since 5, 4 idle only since 8.
        table.set(4, .answering, now: 7)
        table.set(4, .idle, now: 8)
        #expect(table.admit(5, address: "e", now: 9) == .admitClosing(3))
    }

    @Test func whenEveryConnectionIsBusyTheNewOneIsRefused() {
        var table = Table(limits: .init(maxConnections: 2, maxPerAddress: 2))
        _ = table.admit(1, address: "a", now: 0)
        _ = table.admit(2, address: "b", now: 0)
        table.set(1, .answering, now: 1)
        table.set(2, .stream, now: 1)
        #expect(table.admit(3, address: "c", now: 2) == .refuse)
        #expect(table.count == 2)
        #expect(table.phase(of: 3) == nil)
        // One closes: room again.
        table.remove(1)
        #expect(table.admit(3, address: "c", now: 3) == .admit)
    }

    @Test func anAddressOverItsCapMakesRoomFromItsOwnConnections() {
        var table = Table(limits: .init(maxConnections: 10, maxPerAddress: 2))
        _ = table.admit(1, address: "b", now: 0) // another address, idle the longest
        _ = table.admit(2, address: "a", now: 1)
        _ = table.admit(3, address: "a", now: 2)
        #expect(table.admit(4, address: "a", now: 3) == .admitClosing(2))
        #expect(table.phase(of: 1) == .idle)
        #expect(table.count(from: "a") == 2)
        // When all of that address's connections are busy, it is refused
        // even though the server has room.
        table.set(3, .stream, now: 4)
        table.set(4, .answering, now: 4)
        #expect(table.admit(5, address: "a", now: 5) == .refuse)
        #expect(table.admit(6, address: "c", now: 5) == .admit)
    }

    @Test func removingUnknownOrTwiceChangesNothing() {
        var table = Table(limits: .init(maxConnections: 2, maxPerAddress: 2))
        _ = table.admit(1, address: "a", now: 0)
        table.remove(1)
        table.remove(1)
        table.remove(7)
        table.set(7, .stream, now: 1)
        #expect(table.count == 0)
        #expect(table.count(from: "a") == 0)
    }
}
