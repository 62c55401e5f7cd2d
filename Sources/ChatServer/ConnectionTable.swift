/// Which TCP connections the server keeps when there are too many: a value
/// type with no sockets, so that the policy is tested input by input
/// (``ConnectionRegistry`` owns one behind a lock and performs its answers).
///
/// Every connection is in a ``Phase``. A new connection is admitted while
/// there are fewer than ``Limits/maxConnections`` in all and fewer than
/// ``Limits/maxPerAddress`` from its address. Past either cap, the
/// connection that has been idle or reading one request the longest
/// (from that address when the address is over its cap) is closed to make
/// room: a keep-alive connection nobody uses, or one that trickles a
/// request's head. Connections being answered and event streams are never
/// chosen; when only those are left, the new connection is refused.
struct ConnectionTable<ID: Hashable>: Sendable where ID: Sendable {
    /// How many connections the server holds.
    struct Limits: Sendable, Equatable {
        /// Open connections in all (HTTP and event streams).
        var maxConnections: Int
        /// Open connections from one client address.
        var maxPerAddress: Int

        /// Descriptors left for everything but connections when the caps
        /// are derived from the open-file limit: the database (a file, its
        /// WAL and shared memory per reader), the event loops' epoll and
        /// event descriptors, Dispatch's, standard streams, logs. An eighth
        /// of the limit, at least 64.
        static func headroom(openFileLimit: Int) -> Int { max(64, openFileLimit / 8) }

        /// The caps for a process allowed `openFileLimit` descriptors: all
        /// but the ``headroom(openFileLimit:)`` for connections (at least
        /// 16), half of those per address.
        static func derived(openFileLimit: Int) -> Limits {
            let connections = max(16, openFileLimit - headroom(openFileLimit: openFileLimit))
            return Limits(maxConnections: connections, maxPerAddress: max(1, connections / 2))
        }
    }

    /// What a connection is doing.
    enum Phase: Sendable, Equatable {
        /// Open, no request started (new, or between keep-alive requests).
        case idle
        /// Bytes of a request came in; its head or body is not read in full.
        case readingRequest
        /// A request was read in full; its answer is being worked on.
        case answering
        /// Upgraded to an event stream.
        case stream

        /// Whether the connection may be closed to make room for another.
        var isEvictable: Bool { self == .idle || self == .readingRequest }
    }

    /// What to do with a new connection.
    enum Admission: Sendable, Equatable {
        case admit
        /// Admit it after closing this one (already taken out of the table).
        case admitClosing(ID)
        /// Close it at once: every connection is busy.
        case refuse
    }

    private struct Entry {
        var address: String
        var phase: Phase
        /// Instant of the last change of phase (a monotonic tick).
        var since: UInt64
    }

    let limits: Limits
    private var entries: [ID: Entry] = [:]
    private var perAddress: [String: Int] = [:]

    init(limits: Limits) {
        self.limits = limits
    }

    var count: Int { entries.count }

    func count(from address: String) -> Int { perAddress[address] ?? 0 }

    func phase(of id: ID) -> Phase? { entries[id]?.phase }

    /// A new connection from `address` at `now`.
    mutating func admit(_ id: ID, address: String, now: UInt64) -> Admission {
        var answer = Admission.admit
        if count(from: address) >= limits.maxPerAddress {
            guard let victim = oldestEvictable(from: address) else { return .refuse }
            remove(victim)
            answer = .admitClosing(victim)
        } else if entries.count >= limits.maxConnections {
            guard let victim = oldestEvictable(from: nil) else { return .refuse }
            remove(victim)
            answer = .admitClosing(victim)
        }
        entries[id] = Entry(address: address, phase: .idle, since: now)
        perAddress[address, default: 0] += 1
        return answer
    }

    /// A connection changed phase (unknown ids are ignored).
    mutating func set(_ id: ID, _ phase: Phase, now: UInt64) {
        guard var entry = entries[id], entry.phase != phase else { return }
        entry.phase = phase
        entry.since = now
        entries[id] = entry
    }

    /// A connection closed (unknown ids are ignored).
    mutating func remove(_ id: ID) {
        guard let entry = entries.removeValue(forKey: id) else { return }
        let left = (perAddress[entry.address] ?? 1) - 1
        perAddress[entry.address] = left > 0 ? left : nil
    }

    private func oldestEvictable(from address: String?) -> ID? {
        var best: (id: ID, since: UInt64)?
        for (id, entry) in entries where entry.phase.isEvictable && (address == nil || entry.address == address) {
            if let current = best, current.since <= entry.since { continue }
            best = (id, entry.since)
        }
        return best?.id
    }
}
