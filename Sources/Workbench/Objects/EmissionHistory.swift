import ChatCore

/// A watcher's emissions as `inspect` lists them: each one's time and
/// line. The lines sit one after another in large chunks of bytes instead
/// of a string each, each line written as a change of the one before
/// (`LineDelta`), every `keyInterval`-th whole (issue 17: a watcher that
/// emitted 100,000 times held 100,000 strings, each with room to grow).
/// They read back as they were appended.
struct EmissionHistory: Sequence {
    struct Emission: Hashable {
        var time: Instant
        var text: String
    }

    /// The size of a chunk of lines (a longer line gets a chunk of its own).
    static let chunkSize = 1 << 16
    /// Every this many lines, one is written whole: reading any line
    /// decodes at most this many.
    static let keyInterval = 64

    private var times: [Instant] = []
    /// Where each line starts: its chunk in the high 32 bits, its offset in
    /// the low ones. It ends where the next one starts in the same chunk,
    /// or at the end of the chunk.
    private var starts: [UInt64] = []
    private var chunks: [[UInt8]] = []
    /// The last line appended, which the next one is written against.
    private var lastLine: [UInt8] = []

    var count: Int { times.count }
    var isEmpty: Bool { times.isEmpty }

    subscript(position: Int) -> Emission {
        var line: [UInt8] = []
        for n in (position - position % Self.keyInterval)...position { line = LineDelta.decode(encoded(n), after: line) }
        return Emission(time: times[position], text: String(decoding: line, as: UTF8.self))
    }

    func makeIterator() -> Iterator { Iterator(history: self) }

    /// Reads the lines in order, each against the one before.
    struct Iterator: IteratorProtocol {
        let history: EmissionHistory
        var position = 0
        var line: [UInt8] = []

        mutating func next() -> Emission? {
            guard position < history.count else { return nil }
            line = LineDelta.decode(history.encoded(position), after: line)
            defer { position += 1 }
            return Emission(time: history.times[position], text: String(decoding: line, as: UTF8.self))
        }
    }

    mutating func append(_ emission: Emission) {
        var text = emission.text
        let line = text.withUTF8 { Array($0) }
        let encoded = LineDelta.encode(line, after: count % Self.keyInterval == 0 ? nil : lastLine)
        lastLine = line
        if chunks.isEmpty || (chunks[chunks.count - 1].count > 0 && chunks[chunks.count - 1].count + encoded.count > Self.chunkSize) {
            // The first chunk grows as lines come (most watchers emit a few
            // times); once a history is long, a chunk is made full size.
            var chunk: [UInt8] = []
            if !chunks.isEmpty { chunk.reserveCapacity(Swift.max(Self.chunkSize, encoded.count)) }
            chunks.append(chunk)
        }
        let chunk = chunks.count - 1
        starts.append(UInt64(chunk) << 32 | UInt64(chunks[chunk].count))
        chunks[chunk].append(contentsOf: encoded)
        times.append(emission.time)
    }

    private func encoded(_ position: Int) -> ArraySlice<UInt8> {
        let (chunk, start) = Self.unpack(starts[position])
        let next = position + 1 < starts.count ? Self.unpack(starts[position + 1]) : nil
        let end = next.flatMap { $0.chunk == chunk ? $0.offset : nil } ?? chunks[chunk].count
        return chunks[chunk][start..<end]
    }

    private static func unpack(_ start: UInt64) -> (chunk: Int, offset: Int) {
        (Int(start >> 32), Int(start & 0xFFFF_FFFF))
    }
}
