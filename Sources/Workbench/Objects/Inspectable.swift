/// What a path resolves to: a plain value, an object with fields, or a list.
enum Resolved {
    case value(Value)
    case object(any Inspectable)
    case list([Resolved])

    /// The value `expect` compares: objects by their id, lists element-wise.
    var value: Value {
        switch self {
        case .value(let value): value
        case .object(let object): object.comparable
        case .list(let items): .list(items.map(\.value))
        }
    }
}

/// An object of the session that inspection can read. What its fields,
/// summary and history may read of the rest of the session is its
/// ``InspectionScope``: other objects by name, the clients, the stage, when
/// the session began; never the interpreter (issue 29).
protocol Inspectable: AnyObject {
    /// Its handle (`w1`, `c2`, `client`…).
    var handle: String { get }
    /// Field names, in the order `inspect` shows them.
    var fieldNames: [String] { get }
    /// Fields a path reads that `inspect` does not show: a list
    /// (`clock.timers`, `w1.elements`) or a function (`w1.indexOf(HANDLE)`).
    var pathOnlyFieldNames: [String] { get }
    /// A field's value; nil when there is no such field.
    func field(_ name: String, argument: String?, in scope: any InspectionScope) throws(ScriptError) -> Resolved?
    /// One line, for typing the handle alone.
    func summary(in scope: any InspectionScope) -> String
    /// What `expect` compares the object itself with.
    var comparable: Value { get }
    /// Further lines for `inspect` after the fields (its history), each
    /// with what its parts are (a time stamp).
    func history(in scope: any InspectionScope) -> [StyledText]
    /// The title of those lines: `history` unless the object says otherwise.
    var historyTitle: String { get }
}

extension Inspectable {
    var pathOnlyFieldNames: [String] { [] }

    /// Every field a path can name: what a mistyped field is matched
    /// against (W2), what `help HANDLE` and the error list, and what Tab
    /// completes.
    var pathFieldNames: [String] { fieldNames + pathOnlyFieldNames }

    /// What `expect` compares the object itself with: its handle.
    var comparable: Value { .string(handle) }

    func history(in scope: any InspectionScope) -> [StyledText] { [] }

    var historyTitle: String { "history" }
}
