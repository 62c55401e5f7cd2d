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
        #expect(table.phase(of: 1) == .opened)
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

    /// The slowloris case: a normal client whose request a busy server has
    /// not read yet is the oldest of its address's connections, while new
    /// connections keep coming from that address. The slow readers close
    /// first (issue 26: the normal client got 4 of 5 answers under load).
    @Test func aConnectionThatSentNothingYetOutlastsSlowReaders() {
        var table = Table(limits: .init(maxConnections: 10, maxPerAddress: 3))
        _ = table.admit(1, address: "a", now: 0) // the normal client: its request not read yet
        _ = table.admit(2, address: "a", now: 1)
        _ = table.admit(3, address: "a", now: 2)
        table.set(2, .readingRequest, now: 3)
        table.received(2, bytes: 1)
        table.set(3, .readingRequest, now: 4)
        table.received(3, bytes: 1)
        #expect(table.phase(of: 1) == .opened)
        #expect(table.admit(4, address: "a", now: 5) == .admitClosing(2))
        #expect(table.admit(5, address: "a", now: 6) == .admitClosing(3))
        // Only connections that sent nothing are left: the oldest goes.
        #expect(table.admit(6, address: "a", now: 7) == .admitClosing(1))
    }

    /// An upload in full flow is not "the oldest reader": the slowest
    /// reader, by bytes a second since its request began, closes first.
    @Test func theSlowestReaderClosesNotTheOldest() {
        let second: UInt64 = 1_000_000_000
        var table = Table(limits: .init(maxConnections: 2, maxPerAddress: 2))
        _ = table.admit(1, address: "a", now: 0)
        _ = table.admit(2, address: "a", now: 0)
        table.set(1, .readingRequest, now: 0) // an upload: 8 MB in 4 s
        table.received(1, bytes: 8_000_000)
        table.set(2, .readingRequest, now: 3 * second) // a trickler: 3 bytes in 1 s
        table.received(2, bytes: 3)
        #expect(table.admit(3, address: "a", now: 4 * second) == .admitClosing(2))
        // A new request starts counting again: the upload's next request,
        // a byte in, is slower than the new trickler's 40 bytes.
        table.set(1, .answering, now: 5 * second)
        table.set(1, .readingRequest, now: 6 * second)
        table.received(1, bytes: 1)
        table.set(3, .readingRequest, now: 6 * second)
        table.received(3, bytes: 40)
        #expect(table.admit(4, address: "a", now: 7 * second) == .admitClosing(1))
    }

    @Test func aKeepAliveConnectionBetweenRequestsGoesBeforeOneThatSentNothing() {
        var table = Table(limits: .init(maxConnections: 2, maxPerAddress: 2))
        _ = table.admit(1, address: "a", now: 0) // sent nothing yet
        _ = table.admit(2, address: "a", now: 1)
        table.set(2, .readingRequest, now: 2)
        table.set(2, .answering, now: 3)
        table.set(2, .idle, now: 4) // answered; nobody uses it since
        #expect(table.admit(3, address: "a", now: 5) == .admitClosing(2))
    }

    @Test func bytesCountOnlyWhileARequestIsRead() {
        let second: UInt64 = 1_000_000_000
        var table = Table(limits: .init(maxConnections: 2, maxPerAddress: 2))
        _ = table.admit(1, address: "a", now: 0)
        _ = table.admit(2, address: "a", now: 0)
        table.received(1, bytes: 1_000_000) // not reading: ignored
        table.received(9, bytes: 5) // unknown: ignored
        table.set(1, .readingRequest, now: second)
        table.received(1, bytes: 2)
        table.set(2, .readingRequest, now: second)
        table.received(2, bytes: 5)
        #expect(table.admit(3, address: "a", now: 2 * second) == .admitClosing(1))
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
        #expect(table.phase(of: 1) == .opened)
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
