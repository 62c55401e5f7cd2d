import ChatSDK

/// A conversation the session saw (`c1`…).
// @unchecked Sendable: mutable, and touched only by whoever holds the stage
// (`Stage.exclusively`): the thread running a command, which also runs the
// world's jobs, or in server mode between commands the background pump,
// under the same lock. Never by two threads at once.
final class ConversationObject: Inspectable, @unchecked Sendable {
    let handle: String
    let id: String
    let client: ClientObject
    var latest: Conversation?

    init(handle: String, id: String, client: ClientObject) {
        self.handle = handle
        self.id = id
        self.client = client
    }

    /// The id the server knows it by, which the provider side names: the
    /// client's own unless another user held it (ConversationAliases).
    var serverId: String { client.client.serverId(ofConversation: id) }

    let fieldNames = ["id", "serverId", "local", "title", "providerTyping", "count", "preview", "draft"]

    func refresh(in scope: any InspectionScope) {
        let client = self.client.client
        let id = self.id
        if case .success(let value?)? = scope.stage.run({ try await client.conversation(withId: id) }) {
            latest = value
        }
    }

    func field(_ name: String, argument: String?, in scope: any InspectionScope) throws(ScriptError) -> Resolved? {
        refresh(in: scope)
        switch name {
        case "id": return .value(.string(id))
        case "serverId": return .value(.string(serverId))
        case "local": return .value(.bool(latest?.isLocal ?? false))
        case "title": return .value(latest?.title.map(Value.string) ?? .none)
        case "providerTyping": return .value(.bool(latest?.providerTyping ?? false))
        case "count": return .value(.int(Int64(latest?.messageCount ?? 0)))
        case "preview": return .value(latest?.lastMessagePreview.map(Value.string) ?? .none)
        case "draft": return .value(latest?.draft.map(Value.string) ?? .none)
        default: return nil
        }
    }

    func summary(in scope: any InspectionScope) -> String {
        refresh(in: scope)
        guard let latest else { return "\(handle): conversation \(id) (no longer on this device)" }
        var parts = ["\(handle): conversation \(id)"]
        if let title = latest.title { parts.append(Format.quoted(title)) }
        parts.append(latest.isLocal ? "local" : serverId == id ? "on server" : "on server as \(serverId)")
        parts.append("\(latest.messageCount) message\(latest.messageCount == 1 ? "" : "s")")
        if latest.providerTyping { parts.append("provider typing") }
        return parts.joined(separator: ", ")
    }

    /// `c1 "Title" (2 messages)` for emission lines.
    var label: String {
        guard let latest else { return handle }
        let typing = latest.providerTyping ? ", provider typing" : ""
        let count = "(\(latest.messageCount) message\(latest.messageCount == 1 ? "" : "s")\(typing))"
        guard let title = latest.title else { return "\(handle) \(count)" }
        return "\(handle) \(Format.quoted(title)) \(count)"
    }
}
