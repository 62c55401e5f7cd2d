import ChatCore
import ChatSDK

/// A watcher the session started (`w1`…).
// @unchecked Sendable: mutable, and touched only by whoever holds the stage
// (`Stage.exclusively`): the thread running a command, which also runs the
// world's jobs, or in server mode between commands the background pump,
// under the same lock. Never by two threads at once.
final class WatcherObject: Inspectable, @unchecked Sendable {
    enum Target {
        case conversations
        case conversation(ConversationObject)
        case items(ConversationObject)
    }

    let handle: String
    let target: Target
    let client: ClientObject
    /// The client's user when the watcher started (nil: none).
    let userId: String?
    /// The SDK's watcher, delivering to this object as it emits.
    var observation: WatchObservation?
    var emissions = EmissionHistory()
    var state = WatcherState.live(.refreshing) {
        // An ended watcher follows nothing: it is not fresh (D1).
        didSet { if state.isEnded { fresh = false } }
    }
    var fresh = false
    var elements: [String] = []
    var hasMore = false
    var loadMore: (@Sendable () async throws -> Void)?
    var error: ChatError?
    /// `stop` ended it.
    var stopped = false

    init(handle: String, target: Target, client: ClientObject) {
        self.handle = handle
        self.target = target
        self.client = client
        self.userId = client.userId
    }

    var what: String {
        switch target {
        case .conversations: "conversations"
        case .conversation(let c): "conversation \(c.handle)"
        case .items(let c): "items \(c.handle)"
        }
    }

    let fieldNames = ["state", "fresh", "count", "hasMore", "emissions", "error", "watching", "client"]
    let pathOnlyFieldNames = ["elements", "indexOf(HANDLE)"]

    func field(_ name: String, argument: String?, in scope: any InspectionScope) throws(ScriptError) -> Resolved? {
        switch name {
        case "state": .value(.string(state.name))
        case "fresh": .value(.bool(fresh))
        case "count": .value(.int(Int64(elements.count)))
        case "hasMore": .value(.bool(hasMore))
        case "emissions": .value(.int(Int64(emissions.count)))
        case "error": .value(error.map { .string($0.code.rawValue) } ?? .none)
        case "watching": .value(.string(what))
        case "client": .object(client)
        case "elements": .list(elementObjects(in: scope).map { .object($0) })
        case "indexOf": try index(of: argument, in: scope)
        default: nil
        }
    }

    /// `w1.indexOf(m2)`: where the watcher's last emission shows an object,
    /// from 0 (newest first for items), or none when it does not show it;
    /// so that order can be asserted without counting by hand.
    private func index(of argument: String?, in scope: any InspectionScope) throws(ScriptError) -> Resolved {
        guard let argument, !argument.isEmpty else {
            throw ScriptError(.syntax, "indexOf needs a handle: \(handle).indexOf(m1)")
        }
        guard let object = scope.object(named: argument) else {
            throw ScriptError(.unknownHandle, "unknown handle \"\(argument)\"")
        }
        return .value(elements.firstIndex(of: object.handle).map { .int(Int64($0)) } ?? .none)
    }

    func elementObjects(in scope: any InspectionScope) -> [any Inspectable] {
        elements.compactMap { scope.object(named: $0) }
    }

    func summary(in scope: any InspectionScope) -> String {
        var text = "\(handle): watch \(what) — \(state.name), \(fresh ? "fresh" : "not fresh"), \(elements.count) held"
        if hasMore { text += ", more to load" }
        if let error { text += ", error \(error.code)" }
        return text
    }

    func history(in scope: any InspectionScope) -> [StyledText] {
        emissions.map { EventLog.stamped($0.time, since: scope.start, $0.text) }
    }
}
