import ChatCore

/// A watcher's emissions as `inspect` lists them: each one's time and
/// line. The lines sit one after another in large UTF-8 chunks instead of
/// a string each (issue 17: a watcher that emitted 100,000 times held
/// 100,000 strings, each with room to grow), and are read back as they
/// were appended.
struct EmissionHistory: RandomAccessCollection {
    struct Emission: Hashable {
        var time: Instant
        var text: String
    }

    /// The size of a chunk of lines (a longer line gets a chunk of its own).
    static let chunkSize = 1 << 16

    private var times: [Instant] = []
    /// Where each line starts: its chunk in the high 32 bits, its offset in
    /// the low ones. It ends where the next one starts in the same chunk,
    /// or at the end of the chunk.
    private var starts: [UInt64] = []
    private var chunks: [[UInt8]] = []

    var startIndex: Int { 0 }
    var endIndex: Int { times.count }

    subscript(position: Int) -> Emission {
        let (chunk, start) = Self.unpack(starts[position])
        let next = position + 1 < starts.count ? Self.unpack(starts[position + 1]) : nil
        let end = next.flatMap { $0.chunk == chunk ? $0.offset : nil } ?? chunks[chunk].count
        return Emission(time: times[position], text: String(decoding: chunks[chunk][start..<end], as: UTF8.self))
    }

    mutating func append(_ emission: Emission) {
        var text = emission.text
        let length = text.utf8.count
        if chunks.isEmpty || (chunks[chunks.count - 1].count > 0 && chunks[chunks.count - 1].count + length > Self.chunkSize) {
            // The first chunk grows as lines come (most watchers emit a few
            // times); once a history is long, a chunk is made full size.
            var chunk: [UInt8] = []
            if !chunks.isEmpty { chunk.reserveCapacity(Swift.max(Self.chunkSize, length)) }
            chunks.append(chunk)
        }
        let chunk = chunks.count - 1
        starts.append(UInt64(chunk) << 32 | UInt64(chunks[chunk].count))
        text.withUTF8 { chunks[chunk].append(contentsOf: $0) }
        times.append(emission.time)
    }

    private static func unpack(_ start: UInt64) -> (chunk: Int, offset: Int) {
        (Int(start >> 32), Int(start & 0xFFFF_FFFF))
    }
}
