import ChatSDK

/// One event of a step (table `event`).
package struct RecordedEvent: Sendable, Hashable, Codable {
    /// Virtual time in milliseconds since the Unix epoch.
    package var virtualTime: Int64
    /// `client.session`, `w1`, `m1:`, `net:`…
    package var source: String
    /// The whole event line, redacted: for people; no reader parses it
    /// back but the one LEGACY reader (``Kind/init(legacySource:text:)``).
    package var text: String
    /// In a field recording, the event as a value: ChatSDK's ``AppEvent``
    /// as JSON (`event.value`, v7), what a replay or an export reads. Nil
    /// for the workbench's own events and for events recorded before the
    /// recorder wrote their values (what a call returned and a message's
    /// states from v7, every event since issue 30's typed states).
    package var valueJSON: String?
    /// What the event is, as its producer knew it: what the timeline and
    /// the sequence view draw by (`event.kind`, v9).
    package var kind: Kind

    /// An event; its kind from its value (a field recording's
    /// ``AppEvent``), else as given, else read from its text by the LEGACY
    /// reader (a row written before v9).
    package init(virtualTime: Int64, source: String, text: String, valueJSON: String? = nil, kind: Kind? = nil) {
        self.virtualTime = virtualTime
        self.source = source
        self.text = text
        self.valueJSON = valueJSON
        // A value says what the event is, whatever kind an earlier build stored beside it.
        self.kind =
            valueJSON.flatMap(AppEvent.init(json:)).map(Kind.init) ?? kind ?? Kind(legacySource: source, text: text)
    }

    private enum CodingKeys: String, CodingKey {
        case virtualTime, source, text, valueJSON, kind
    }

    /// An event read from JSON (`sessions show --json`); one written
    /// before events had kinds, or with a kind this build does not read
    /// (a request's answer as text, before answers were typed), is typed
    /// as its row would be.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            virtualTime: try container.decode(Int64.self, forKey: .virtualTime),
            source: try container.decode(String.self, forKey: .source), text: try container.decode(String.self, forKey: .text),
            valueJSON: try container.decodeIfPresent(String.self, forKey: .valueJSON),
            kind: (try? container.decodeIfPresent(Kind.self, forKey: .kind)) ?? nil)
    }
}
