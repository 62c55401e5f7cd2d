import ChatCore
import ChatSDK

/// The messages the session saw (`m1`…), one compact record each (issue 17:
/// a session with 100,000 messages held an object, two dictionary entries
/// and a copy of the SDK's `Message` for every one of them).
///
/// A record keeps what inspection shows as a few strings and small codes;
/// what few messages have (an attachment, an error, a state history, a
/// name the user chose) sits in small side tables. `MessageObject` is a
/// view of one record, made when a handle is looked up.
// @unchecked Sendable: mutable, and touched only by whoever holds the stage
// (`Stage.exclusively`), as the interpreter that owns it.
final class MessageTable: @unchecked Sendable {
    struct Record {
        let id: String
        /// The text of a text message; the author's id or name.
        var text = ""
        var authorName = ""
        /// `m` and this number, unless it is 0 (a name in `chosenNames`).
        let number: Int32
        /// Its conversation and client, in `places`.
        let place: Int32
        var state: SendState.Kind?
        var reported: SendState.Kind?
        var flags: Flags = []
    }

    /// A conversation of a client: few, shared by all their messages.
    struct Place {
        let conversationId: String
        let client: ClientObject
    }

    /// A `SendState` without its error (kept aside for `failed`); `none`: not seen.
    struct Flags: OptionSet {
        let rawValue: UInt8
        static let readByProvider = Flags(rawValue: 1)
        static let attachment = Flags(rawValue: 2)
        static let byProvider = Flags(rawValue: 4)
        static let bySystem = Flags(rawValue: 8)
        static let replying = Flags(rawValue: 16)
    }

    /// Records in chunks of `chunkSize`: a chunk, once made, never moves
    /// or grows (no copy, no spare room of a doubling array).
    private var chunks: [[Record]] = []
    /// Beside the records (which fill 64 bytes), by the same chunks: each
    /// message's sequence number in its conversation, 0 until the server
    /// gave one (they start at 1).
    private var seqChunks: [[Int64]] = []
    private(set) var count = 0
    static let chunkSize = 4096
    private var places: [Place] = []
    private var index = IDIndex()
    /// Index of `m<n>` at n - 1 (-1: a number never handed to a message).
    private var indexByNumber: [Int32] = []
    private var chosenNames: [Int32: String] = [:]
    private var indexByChosenName: [String: Int32] = [:]
    private var attachments: [Int32: MessageContent] = [:]
    /// The SHA-256 (hex) of an attachment's bytes, once the session held
    /// them: the file it sent, or what `fetch` read.
    private var digests: [Int32: String] = [:]
    private var replies: [Int32: String] = [:]
    private var errors: [Int32: ChatError] = [:]
    private var reportedErrors: [Int32: ChatError] = [:]
    private var histories: [Int32: [(time: Instant, state: SendState)]] = [:]

    /// Adds a message under `handle`: `m<n>` when `number` is n, else a name
    /// of the user's choice. Returns its index.
    @discardableResult
    func add(id: String, conversationId: String, client: ClientObject, handle: String, number: Int?) -> Int {
        let index = Int32(count)
        let record = Record(id: id, number: Int32(number ?? 0), place: place(conversationId, client))
        if count % Self.chunkSize == 0 {
            var chunk: [Record] = []
            chunk.reserveCapacity(Self.chunkSize)
            chunks.append(chunk)
            var seqs: [Int64] = []
            seqs.reserveCapacity(Self.chunkSize)
            seqChunks.append(seqs)
        }
        chunks[chunks.count - 1].append(record)
        seqChunks[seqChunks.count - 1].append(0)
        count += 1
        self.index.insert(index, hash: id.hashValue, hashOf: { self[$0].id.hashValue }, matches: { self[$0].id == id })
        if let number {
            if indexByNumber.count < number { indexByNumber.append(contentsOf: repeatElement(-1, count: number - indexByNumber.count)) }
            indexByNumber[number - 1] = index
        } else {
            chosenNames[index] = handle
            indexByChosenName[handle] = index
        }
        return Int(index)
    }

    private subscript(index: Int32) -> Record {
        get { chunks[Int(index) / Self.chunkSize][Int(index) % Self.chunkSize] }
        set { chunks[Int(index) / Self.chunkSize][Int(index) % Self.chunkSize] = newValue }
    }

    private func place(_ conversationId: String, _ client: ClientObject) -> Int32 {
        if let last = places.indices.last(where: { places[$0].conversationId == conversationId && places[$0].client === client }) {
            return Int32(last)
        }
        places.append(Place(conversationId: conversationId, client: client))
        return Int32(places.count - 1)
    }

    func index(ofID id: String) -> Int? { index.find(hash: id.hashValue) { self[$0].id == id }.map(Int.init) }

    /// The index of the message a handle names.
    func index(ofHandle handle: String) -> Int? {
        if let index = indexByChosenName[handle] { return Int(index) }
        guard handle.hasPrefix("m"), let number = Int(handle.dropFirst()), number > 0, number <= indexByNumber.count,
            "m\(number)" == handle
        else { return nil }
        let index = indexByNumber[number - 1]
        return index < 0 ? nil : Int(index)
    }

    func handle(at index: Int) -> String {
        let number = self[Int32(index)].number
        return number == 0 ? chosenNames[Int32(index)]! : "m\(number)"
    }

    /// Every message's handle, in the order they were handed out.
    var handles: [String] { (0..<count).map(handle(at:)) }

    func id(at index: Int) -> String { self[Int32(index)].id }
    func conversationId(at index: Int) -> String { places[Int(self[Int32(index)].place)].conversationId }
    func client(at index: Int) -> ClientObject { places[Int(self[Int32(index)].place)].client }

    func digest(at index: Int) -> String? { digests[Int32(index)] }
    func setDigest(_ digest: String, at index: Int) { digests[Int32(index)] = digest }

    // MARK: What was seen

    func seen(at index: Int) -> SeenMessage? {
        let record = self[Int32(index)]
        guard let state = state(record.state, error: errors[Int32(index)]) else { return nil }
        let author: MessageAuthor =
            if record.flags.contains(.bySystem) { .system } else if record.flags.contains(.byProvider) {
                .provider(name: record.authorName)
            } else { .user(id: record.authorName) }
        let content = record.flags.contains(.attachment) ? attachments[Int32(index)]! : .text(record.text)
        return SeenMessage(
            author: author, content: content, replyTo: record.flags.contains(.replying) ? replies[Int32(index)] : nil, state: state,
            isReadByProvider: record.flags.contains(.readByProvider), seq: seq(at: index))
    }

    func setSeen(_ seen: SeenMessage?, at index: Int) {
        let key = Int32(index)
        var record = self[key]
        // Side tables are touched only by messages that have or had an entry.
        if record.flags.contains(.attachment) { attachments[key] = nil }
        if record.flags.contains(.replying) { replies[key] = nil }
        let wasFailed = record.state == .failed
        let error: ChatError?
        (record.state, error) = Self.code(seen?.state)
        if let error { errors[key] = error } else if wasFailed { errors[key] = nil }
        record.flags = []
        record.text = ""
        record.authorName = ""
        seqChunks[index / Self.chunkSize][index % Self.chunkSize] = seen?.seq ?? 0
        if let seen {
            switch seen.author {
            case .user(let id): record.authorName = id
            case .provider(let name):
                record.authorName = name
                record.flags.insert(.byProvider)
            case .system: record.flags.insert(.bySystem)
            }
            if case .text(let text) = seen.content {
                record.text = text
            } else {
                attachments[key] = seen.content
                record.flags.insert(.attachment)
            }
            if let replyTo = seen.replyTo {
                replies[key] = replyTo
                record.flags.insert(.replying)
            }
            if seen.isReadByProvider { record.flags.insert(.readByProvider) }
        }
        self[key] = record
    }

    /// The message's sequence number, once the server gave one.
    private func seq(at index: Int) -> Int64? {
        let seq = seqChunks[index / Self.chunkSize][index % Self.chunkSize]
        return seq == 0 ? nil : seq
    }

    /// The last state `messageStateChanged` reported.
    func reportedState(at index: Int) -> SendState? {
        state(self[Int32(index)].reported, error: reportedErrors[Int32(index)])
    }

    func setReportedState(_ state: SendState?, at index: Int) {
        let key = Int32(index)
        let wasFailed = self[key].reported == .failed
        let (code, error) = Self.code(state)
        self[key].reported = code
        if let error { reportedErrors[key] = error } else if wasFailed { reportedErrors[key] = nil }
    }

    func history(at index: Int) -> [(time: Instant, state: SendState)] { histories[Int32(index)] ?? [] }

    func appendHistory(_ entry: (time: Instant, state: SendState), at index: Int) {
        histories[Int32(index), default: []].append(entry)
    }

    private func state(_ kind: SendState.Kind?, error: @autoclosure () -> ChatError?) -> SendState? {
        kind.map { SendState($0, error: error()!) }
    }

    private static func code(_ state: SendState?) -> (SendState.Kind?, ChatError?) {
        guard let state else { return (nil, nil) }
        if case .failed(let error) = state { return (.failed, error) }
        return (state.kind, nil)
    }
}
