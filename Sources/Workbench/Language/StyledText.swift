/// Output text and what its parts are, made together by the code that
/// prints it: `error: …` is a failure because the error path printed it,
/// not because a line starts so (a message's text may; issue 30). The text
/// is what transcripts compare and recordings keep; the styles are only for
/// an edge that shows kinds apart.
package struct StyledText: Sendable, Hashable {
    /// A part of the text, as UTF-8 offsets, and what it is.
    package struct Span: Sendable, Hashable {
        package var range: Range<Int>
        package var style: OutputStyle

        package init(_ range: Range<Int>, _ style: OutputStyle) {
            self.range = range
            self.style = style
        }
    }

    package private(set) var text: String
    /// The parts that have a style, in order, none overlapping; the rest is plain.
    package private(set) var spans: [Span]

    /// `text`, all of it in `style` (plain when nil).
    package init(_ text: String = "", as style: OutputStyle? = nil) {
        self.text = ""
        spans = []
        append(text, as: style)
    }

    /// `text` with the given spans (in order, not overlapping, within the text).
    package init(text: String, spans: [Span]) {
        self.text = text
        self.spans = spans
    }

    /// One line: `text` in `style`, then a plain newline.
    package static func line(_ text: String, as style: OutputStyle? = nil) -> StyledText {
        var line = StyledText(text, as: style)
        line.text += "\n"
        return line
    }

    package var isEmpty: Bool { text.isEmpty }

    /// Appends `text`, all of it in `style` (plain when nil).
    package mutating func append(_ text: String, as style: OutputStyle? = nil) {
        let start = self.text.utf8.count
        self.text += text
        if let style, !text.isEmpty { spans.append(Span(start..<self.text.utf8.count, style)) }
    }

    /// Appends `line` in `style`, then a plain newline.
    package mutating func appendLine(_ line: String, as style: OutputStyle? = nil) {
        append(line, as: style)
        text += "\n"
    }

    /// Appends `other`, text and styles.
    package mutating func append(_ other: StyledText) {
        let start = text.utf8.count
        text += other.text
        spans += other.spans.map { Span($0.range.lowerBound + start..<$0.range.upperBound + start, $0.style) }
    }

    /// Room for `bytes` more bytes of text and `spans` more styled parts.
    package mutating func reserveCapacity(bytes: Int, spans count: Int) {
        text.reserveCapacity(text.utf8.count + bytes)
        spans.reserveCapacity(spans.count + count)
    }

    /// The text without its last newline, when it ends with one.
    package func droppingLastNewline() -> StyledText {
        guard text.utf8.last == 0x0A else { return self }
        let end = text.utf8.count - 1
        return StyledText(
            text: String(decoding: text.utf8.dropLast(), as: UTF8.self),
            spans: spans.compactMap { span in
                let range = span.range.clamped(to: 0..<end)
                return range.isEmpty ? nil : Span(range, span.style)
            })
    }

    /// The whole text in order, each part with its style (nil: plain).
    package var parts: [(text: String, style: OutputStyle?)] {
        let bytes = Array(text.utf8)
        var parts: [(text: String, style: OutputStyle?)] = []
        var at = 0
        for span in spans {
            if span.range.lowerBound > at { parts.append((String(decoding: bytes[at..<span.range.lowerBound], as: UTF8.self), nil)) }
            parts.append((String(decoding: bytes[span.range], as: UTF8.self), span.style))
            at = span.range.upperBound
        }
        if at < bytes.count { parts.append((String(decoding: bytes[at...], as: UTF8.self), nil)) }
        return parts
    }

    /// Each styled part's text and style, in order: what a reader (a test)
    /// checks.
    package var styledParts: [(text: String, style: OutputStyle)] {
        parts.compactMap { part in part.style.map { (part.text, $0) } }
    }
}
