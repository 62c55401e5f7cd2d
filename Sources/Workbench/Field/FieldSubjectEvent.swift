import ChatSDK

/// One event of a subject (a message, a watcher, the session…) as a field
/// replay compares the device's with its own (``Replayer/firstDivergence(_:_:)``):
/// by their values (``AppEvent``) when both have one, else by their texts
/// (a recording made before `event.value`).
struct FieldSubjectEvent {
    /// What a divergence shows of it.
    var text: String
    /// What is compared; nil for an event recorded without its value.
    var key: Key?
    /// Whose it is: the events of one subject are compared in order.
    var subject: Subject

    /// Whose an event is: from its value (``AppEvent/subject``), or for an
    /// event recorded without one, its source as recorded (LEGACY).
    enum Subject: Hashable, CustomStringConvertible {
        case value(AppEvent.Subject)
        case legacy(source: String)

        var description: String {
            switch self {
            case .value(let subject): subject.source
            case .legacy(let source): source
            }
        }
    }
    var step: Int
    /// Whether it is a watcher's emission.
    var isEmission: Bool

    enum Key: Hashable {
        case value(AppEvent)
        /// A watcher's emission without its freshness (``withoutFreshness``).
        case shown(watcher: Int, AppEvent.Shown)
    }

    init(_ event: RecordedEvent, step: Int) {
        text = event.text
        self.step = step
        if let json = event.valueJSON, let value = AppEvent(json: json) {
            key = .value(value)
            subject = .value(value.subject)
            if case .emission = value { isEmission = true } else { isEmission = false }
        } else {
            key = nil
            subject = Self.legacySubject(event.source)
            isEmission = Self.legacyIsWatcher(event.source)
        }
    }

    /// The same event on both sides.
    func matches(_ other: FieldSubjectEvent) -> Bool {
        if let key, let other = other.key { return key == other }
        return text == other.text
    }

    /// A watcher's emission as the device's and the replay's are compared:
    /// what it showed, without whether it was fresh and how its refresh
    /// stood (`w1: 1 item (m-1 sent)`). Other events as they are.
    var withoutFreshness: FieldSubjectEvent {
        var event = self
        switch key {
        case .value(.emission(let watcher, let shown, _, _))?:
            event.key = .shown(watcher: watcher, shown)
            event.text = "\(FlightRecorder.watcherName(watcher)): \(shown.text)"
        case nil where isEmission:
            event.text = Self.legacyWithoutFreshness(text)
        default: break
        }
        return event
    }

    // MARK: Recordings made before `event.value` (schema v6 and older)

    /// LEGACY, for events recorded without their value only: whose the
    /// event is, from its source as the recorder wrote it (`call`, `m-1:`,
    /// `client.session`, `w1`…), so that it meets the same subject's events
    /// of a replay, which have their values; a source of no known shape
    /// stays as it is.
    static func legacySubject(_ source: String) -> Subject {
        if let subject = legacyNamed[source] { return .value(subject) }
        if source.hasSuffix(":") { return .value(.message(id: String(source.dropLast()))) }
        if let number = source.wholeMatch(of: /w(\d+)/).flatMap({ Int($0.1) }), number > 0 { return .value(.watcher(number - 1)) }
        return .legacy(source: source)
    }

    private static let legacyNamed: [String: AppEvent.Subject] = [
        "call": .call, "client.session": .session, "client.connection": .connection, "warning": .warning,
        "client.auth": .authentication, "watcher": .watcher(nil),
    ]

    /// LEGACY, for events recorded without their value only: a watcher's
    /// events are those under its name (`w1`).
    private static func legacyIsWatcher(_ source: String) -> Bool {
        source.wholeMatch(of: /w\d+/) != nil
    }

    /// LEGACY, for events recorded without their value only: the text the
    /// recorder wrote (`w1: 1 item (m-1 sent), fresh, refreshed`) without
    /// its last two words.
    private static func legacyWithoutFreshness(_ text: String) -> String {
        text.replacing(/, (cached|fresh), \w+$/, with: "")
    }
}
