import Synchronization

/// How much one event stream may have waiting to be written: a value type
/// with no sockets (the stream keeps one behind a lock; tests drive it
/// input by input).
///
/// The backend offers each event to the stream in order. The catch-up (the
/// events stored before the stream opened) is taken while the queue holds
/// less than half its bound, then held back: the backend stops there and
/// goes on when the queue has drained to a quarter (``sent(bytes:)`` says
/// when), so a catch-up over a long history never holds more than that.
/// A newer event that finds the queue at its bound means the client does
/// not read what it is sent: the stream is closed as a slow consumer,
/// and the client catches up when it comes back (`after=`).
struct EventStreamBudget: Sendable, Equatable {
    struct Limits: Sendable, Equatable {
        /// Frames waiting to be written.
        var maxFrames = 256
        /// Their size in bytes.
        var maxBytes = 1 << 20
    }

    enum Offer: Sendable, Equatable {
        /// Queue it.
        case take
        /// The catch-up waits for room: deliver it again after ``EventStreamBudget/sent(bytes:)`` says so.
        case hold
        /// The client does not keep up: close the stream.
        case overflow
    }

    let limits: Limits
    /// The userSeq of the user's newest event when the stream opened (0
    /// when it asked for none): events up to it are the catch-up.
    let catchUpThrough: Int64
    private(set) var frames = 0
    private(set) var bytes = 0
    /// An event was held back; the backend waits for a resume.
    private(set) var isHolding = false

    init(limits: Limits = Limits(), catchUpThrough: Int64) {
        self.limits = limits
        self.catchUpThrough = catchUpThrough
    }

    /// The backend offers an event of `size` bytes.
    mutating func offer(userSeq: Int64, size: Int) -> Offer {
        let catchUp = userSeq <= catchUpThrough
        let maxFrames = catchUp ? limits.maxFrames / 2 : limits.maxFrames
        let maxBytes = catchUp ? limits.maxBytes / 2 : limits.maxBytes
        // An empty queue takes anything, however large (the frame limit applies).
        if frames == 0 || (frames < maxFrames && bytes + size <= maxBytes) {
            frames += 1
            bytes += size
            return .take
        }
        if catchUp {
            isHolding = true
            return .hold
        }
        return .overflow
    }

    /// A frame of `size` bytes was written; true when the backend is to be
    /// asked to go on (it was held back and the queue drained to a quarter).
    mutating func sent(size: Int) -> Bool {
        frames = max(0, frames - 1)
        bytes = max(0, bytes - size)
        guard isHolding, frames <= limits.maxFrames / 4, bytes <= limits.maxBytes / 4 else { return false }
        isHolding = false
        return true
    }
}

/// An ``EventStreamBudget`` shared by the backend's deliveries (which
/// offer events) and the stream's writer (which sends them).
final class SharedEventStreamBudget: Sendable {
    private let state: Mutex<EventStreamBudget>
    private let closing = Mutex(false)

    init(_ budget: EventStreamBudget) {
        state = Mutex(budget)
    }

    func withLock<Result: Sendable>(_ body: (inout EventStreamBudget) -> Result) -> Result {
        state.withLock { body(&$0) }
    }

    /// The stream is closing: nothing more is written.
    var isClosing: Bool {
        get { closing.withLock { $0 } }
        set { closing.withLock { $0 = newValue } }
    }
}
