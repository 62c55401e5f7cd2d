import ChatSDK
import Foundation

extension StyledText.Span: Codable {
    /// `[from, to, "style"]`: UTF-8 offsets into the text, and what the part is.
    package init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        let from = try container.decode(Int.self)
        let to = try container.decode(Int.self)
        let style = try container.decode(OutputStyle.self)
        guard from >= 0, from < to else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "no styled part \(from)..<\(to)"))
        }
        self.init(from..<to, style)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(range.lowerBound)
        try container.encode(range.upperBound)
        try container.encode(style)
    }

    /// The spans as `step.styles` keeps them (`[[0,16,"time"],…]`):
    /// written by hand, as the encoder writes them (checked in
    /// RecordedStylesTests), since every styled step writes one.
    static func json(_ spans: [StyledText.Span]) -> String {
        var json = "["
        for (index, span) in spans.enumerated() {
            if index > 0 { json += "," }
            json += "[\(span.range.lowerBound),\(span.range.upperBound),\"\(span.style.rawValue)\"]"
        }
        return json + "]"
    }

    /// The spans `json` holds, when they fit `text` (in order, not
    /// overlapping, within it); nil otherwise (a damaged row, or styles
    /// this version does not know), so that the text is shown plain. The
    /// minted values' parts (``OutputStyle/minted``) follow the styles, in
    /// order among themselves: they may lie within a styled part.
    static func spans(json: String, within text: String) -> [StyledText.Span]? {
        guard let spans = TapeCoding.decode([StyledText.Span].self, from: Data(json.utf8)) else { return nil }
        var end = 0
        var mintedEnd = 0
        var sawMinted = false
        for span in spans {
            if span.style == .minted {
                guard span.range.lowerBound >= mintedEnd else { return nil }
                mintedEnd = span.range.upperBound
                sawMinted = true
            } else {
                guard !sawMinted, span.range.lowerBound >= end else { return nil }
                end = span.range.upperBound
            }
        }
        return max(end, mintedEnd) <= text.utf8.count ? spans : nil
    }
}

extension StyledText {
    /// Its spans carried over to `redacted`, its text with secrets replaced
    /// (the Redactor's placeholders never hold a newline), line for line:
    /// a part on lines that redaction left as they were keeps its place,
    /// moved by what changed before them; a part on changed lines is kept
    /// only when it covered them whole; none is kept when the lines do not
    /// match up. A part never carries text, so nothing in clear can pass.
    func spans(carriedTo redacted: String) -> [Span] {
        guard !spans.isEmpty else { return [] }
        if redacted == text { return spans }
        let old = Array(text.utf8)
        let new = Array(redacted.utf8)
        let oldLines = Self.lineRanges(old)
        let newLines = Self.lineRanges(new)
        guard oldLines.count == newLines.count else { return [] }
        var kept: [Span] = []
        var line = 0
        for span in spans {
            while line < oldLines.count - 1, span.range.lowerBound >= oldLines[line + 1].lowerBound { line += 1 }
            var last = line
            while last < oldLines.count - 1, span.range.upperBound > oldLines[last].upperBound { last += 1 }
            let unchanged = (line...last).allSatisfy { old[oldLines[$0]] == new[newLines[$0]] }
            if unchanged {
                let shift = newLines[line].lowerBound - oldLines[line].lowerBound
                kept.append(Span(span.range.lowerBound + shift..<span.range.upperBound + shift, span.style))
            } else if span.range.lowerBound == oldLines[line].lowerBound, span.range.upperBound == oldLines[last].upperBound,
                newLines[line].lowerBound < newLines[last].upperBound
            {
                kept.append(Span(newLines[line].lowerBound..<newLines[last].upperBound, span.style))
            }
        }
        return kept
    }

    /// Each line's bytes, without its newline; a last line after a final newline is empty.
    private static func lineRanges(_ bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == 0x0A {
            ranges.append(start..<index)
            start = index + 1
        }
        ranges.append(start..<bytes.count)
        return ranges
    }

    /// Its lines (split at each newline, which is dropped), each with the
    /// styled parts within it.
    package var lines: [StyledText] {
        let bytes = Array(text.utf8)
        return Self.lineRanges(bytes).map { line in
            StyledText(
                text: String(decoding: bytes[line], as: UTF8.self),
                spans: spans.compactMap { span in
                    let range = span.range.clamped(to: line)
                    return range.isEmpty ? nil : Span(range.lowerBound - line.lowerBound..<range.upperBound - line.lowerBound, span.style)
                })
        }
    }
}
