import ChatCore
import ChatSDK

/// A message the session saw (`m1`…), with its state changes: a view of
/// its record in the session's `MessageTable`, made when it is looked up.
// @unchecked Sendable: mutable, and touched only by whoever holds the stage
// (`Stage.exclusively`): the thread running a command, which also runs the
// world's jobs, or in server mode between commands the background pump,
// under the same lock. Never by two threads at once.
final class MessageObject: Inspectable, @unchecked Sendable {
    let table: MessageTable
    let index: Int

    init(table: MessageTable, index: Int) {
        self.table = table
        self.index = index
    }

    var handle: String { table.handle(at: index) }
    var id: String { table.id(at: index) }
    var conversationId: String { table.conversationId(at: index) }
    var client: ClientObject { table.client(at: index) }
    /// The id the server knows its conversation by (ConversationAliases).
    var serverConversationId: String { client.client.serverId(ofConversation: conversationId) }
    /// The message as last seen, its state always the SDK's last word.
    var latest: SeenMessage? {
        get { table.seen(at: index) }
        set { table.setSeen(newValue, at: index) }
    }
    /// The last state `messageStateChanged` reported.
    var reportedState: SendState? {
        get { table.reportedState(at: index) }
        set { table.setReportedState(newValue, at: index) }
    }
    /// The states `messageStateChanged` reported, in order, with their times.
    var history: [(time: Instant, state: SendState)] { table.history(at: index) }
    /// The SHA-256 (hex) of its attachment's bytes, once the session held them.
    var digest: String? {
        get { table.digest(at: index) }
        set { if let newValue { table.setDigest(newValue, at: index) } }
    }

    func appendHistory(_ state: SendState, at time: Instant) { table.appendHistory((time, state), at: index) }

    /// A message's fields; `attachment` is listed for an attachment only (on
    /// a text message it is none, as `text` is on an attachment).
    var fieldNames: [String] {
        guard case .attachment? = latest?.content else { return Self.textFieldNames }
        return Self.attachmentFieldNames
    }
    static let textFieldNames = ["id", "kind", "text", "state", "error", "author", "conversation", "replyTo", "readByProvider", "seq"]
    static let attachmentFieldNames = [
        "id", "kind", "text", "attachment", "state", "error", "author", "conversation", "replyTo", "readByProvider", "seq",
    ]

    func field(_ name: String, argument: String?, in scope: any InspectionScope) throws(ScriptError) -> Resolved? {
        switch name {
        case "id": return .value(.string(id))
        case "kind": return .value(.string(kind))
        case "text":
            if case .text(let text)? = latest?.content { return .value(.string(text)) }
            return .value(.none)
        case "attachment":
            guard let content = latest?.content, case .attachment = content else { return .value(.none) }
            return .value(.string(Format.attachment(content, digest: digest)))
        case "state": return .value(latest.map { .string($0.state.name) } ?? .none)
        case "error":
            if case .failed(let error)? = latest?.state { return .value(.string(error.code.rawValue)) }
            return .value(.none)
        case "author": return .value(.string(author))
        case "conversation": return scope.reference(conversationId)
        case "replyTo": return latest?.replyTo.map { scope.reference($0) } ?? .value(.none)
        case "readByProvider": return .value(.bool(latest?.isReadByProvider ?? false))
        // The server's order of the conversation's messages (none until sent).
        case "seq": return .value(latest?.seq.map { .int($0) } ?? .none)
        default: return nil
        }
    }

    var kind: String {
        switch latest?.content {
        case .text?: "text"
        case .attachment(let kind, _, _, _)?: kind.rawValue
        case nil: "unknown"
        }
    }

    var author: String {
        switch latest?.author {
        case .user(let id)?: id
        case .provider(let name)?: name
        case .system?: "system"
        case nil: "unknown"
        }
    }

    /// `m1 sent "hi"` or `m2 agent "Hello"`, for emission lines.
    var label: String {
        guard let latest else { return handle }
        return label(of: latest)
    }

    /// The label of this message as one client sees it (`view`).
    func label(of view: SeenMessage) -> String {
        let who: String =
            switch view.author {
            case .user: view.state.description
            case .provider(let name): name
            case .system: "system"
            }
        return "\(handle) \(who)\(view.isReadByProvider ? " read" : "") \(Format.content(view.content))"
    }

    func summary(in scope: any InspectionScope) -> String {
        guard let latest else { return "\(handle): message \(id)" }
        var text =
            "\(handle): \(kind) message \(Format.content(latest.content)) by \(author) in \(scope.handle(forID: conversationId) ?? conversationId), \(latest.state)"
        if let reply = latest.replyTo { text += ", replying to \(scope.handle(forID: reply) ?? reply)" }
        return text
    }

    func history(in scope: any InspectionScope) -> [StyledText] {
        history.map { EventLog.stamped($0.time, since: scope.start, "\($0.state)") }
    }
}
