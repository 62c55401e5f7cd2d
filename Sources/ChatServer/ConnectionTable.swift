/// Which TCP connections the server keeps when there are too many: a value
/// type with no sockets, so that the policy is tested input by input
/// (``ConnectionRegistry`` owns one behind a lock and performs its answers).
///
/// Every connection is in a ``Phase``. A new connection is admitted while
/// there are fewer than ``Limits/maxConnections`` in all and fewer than
/// ``Limits/maxPerAddress`` from its address. Past either cap, one
/// connection (from that address when the address is over its cap) is
/// closed to make room, the one that does least for its descriptor:
///
/// 1. one reading a request, the slowest first (fewest bytes a second since
///    the request's first byte, counting at least a second): a slowloris
///    trickling a head goes before an upload in full flow, however long
///    that upload has been going;
/// 2. then a keep-alive connection between requests, idle the longest;
/// 3. last, a connection that has sent nothing yet, open the longest: a
///    client that just connected and whose request the server has not read
///    yet (a busy server reads late) is not closed while slow readers are
///    there to close, though new connections keep coming from its address.
///
/// Connections being answered and event streams are never chosen; when
/// only those are left, the new connection is refused.
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
        /// Just accepted: no byte read yet.
        case opened
        /// Between keep-alive requests: an answer went out, no new request started.
        case idle
        /// Bytes of a request came in; its head or body is not read in full.
        case readingRequest
        /// A request was read in full; its answer is being worked on.
        case answering
        /// Upgraded to an event stream.
        case stream

        /// Whether the connection may be closed to make room for another.
        var isEvictable: Bool { self == .opened || self == .idle || self == .readingRequest }
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
        /// Instant of the last change of phase (a monotonic tick, in nanoseconds).
        var since: UInt64
        /// Bytes read since the request being read began (``Phase/readingRequest``).
        var bytes: Int = 0
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
            guard let victim = evictionCandidate(from: address, now: now) else { return .refuse }
            remove(victim)
            answer = .admitClosing(victim)
        } else if entries.count >= limits.maxConnections {
            guard let victim = evictionCandidate(from: nil, now: now) else { return .refuse }
            remove(victim)
            answer = .admitClosing(victim)
        }
        entries[id] = Entry(address: address, phase: .opened, since: now)
        perAddress[address, default: 0] += 1
        return answer
    }

    /// A connection changed phase (unknown ids are ignored).
    mutating func set(_ id: ID, _ phase: Phase, now: UInt64) {
        guard var entry = entries[id], entry.phase != phase else { return }
        entry.phase = phase
        entry.since = now
        entry.bytes = 0
        entries[id] = entry
    }

    /// A connection reading a request read `bytes` more of it (unknown ids,
    /// and connections in another phase, are ignored).
    mutating func received(_ id: ID, bytes: Int) {
        guard entries[id]?.phase == .readingRequest else { return }
        entries[id]?.bytes += bytes
    }

    /// A connection closed (unknown ids are ignored).
    mutating func remove(_ id: ID) {
        guard let entry = entries.removeValue(forKey: id) else { return }
        let left = (perAddress[entry.address] ?? 1) - 1
        perAddress[entry.address] = left > 0 ? left : nil
    }

    private func evictionCandidate(from address: String?, now: UInt64) -> ID? {
        var best: (id: ID, rank: Rank)?
        for (id, entry) in entries where entry.phase.isEvictable && (address == nil || entry.address == address) {
            let rank = Rank(entry, now: now)
            if let current = best, !(rank < current.rank) { continue }
            best = (id, rank)
        }
        return best?.id
    }

    /// How willingly a connection is closed to make room: the smallest goes
    /// first (see the type's comment).
    private struct Rank: Comparable {
        /// 0 reading a request, 1 between requests, 2 nothing read yet.
        var order: Int
        /// A reading request's bytes a second; 0 for the others.
        var rate: Double
        var since: UInt64

        init(_ entry: Entry, now: UInt64) {
            switch entry.phase {
            case .readingRequest:
                order = 0
                let seconds = max(1, Double(now &- min(now, entry.since)) / 1_000_000_000)
                rate = Double(entry.bytes) / seconds
            case .idle:
                order = 1
                rate = 0
            default:
                order = 2
                rate = 0
            }
            since = entry.since
        }

        static func < (a: Rank, b: Rank) -> Bool {
            (a.order, a.rate, a.since) < (b.order, b.rate, b.since)
        }
    }
}
