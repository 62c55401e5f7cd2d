import ChatCore
import ChatSDK
import ChatSimulation

/// The session's objects and the words that name them (issue 29): its
/// clients and the current one, every handle and the SDK or server id it
/// stands for, on the stage they live on. The interpreter, a command's
/// context (``CommandContext/handles``) and inspection (as its
/// ``InspectionScope``) share one; none of them asks the interpreter for a name.
// @unchecked Sendable: mutable, and touched only by whoever holds the stage
// (`Stage.exclusively`), as for the interpreter that owns it: the thread
// running a command, which also runs the world's jobs, or in server mode
// between commands the background pump, under the same lock.
final class SessionObjects: InspectionScope, @unchecked Sendable {
    let stage: any Stage
    let start: Instant
    var clients: [ClientObject] = []
    /// The client the app's calls go to (`use NAME` changes it).
    var current: ClientObject!
    /// Handle → object, for every object the session created or saw, and
    /// SDK or server id → handle.
    var objects = ObjectRegistry()
    var counters: [String: Int] = [:]
    /// The values the client or the server minted, by what they are, when
    /// kept (``MintedValues``).
    var minted = MintedValues()
    /// The name `NAME = VERB …` gives the object the verb makes, taken by
    /// the first handle of that kind handed out while the verb runs.
    var pendingBinding: (name: String, prefix: String)?

    init(stage: any Stage, start: Instant) {
        self.stage = stage
        self.start = start
    }

    /// The names a path can start with besides handles.
    static let reservedRoots = ["client", "error", "server", "provider", "clock", "net", "delegate"]

    /// The next handle with this prefix: `w1`, `w2`…, skipping names the
    /// user bound, with the number the counter handed out; or the name
    /// being bound, for the object it names, with no number.
    func nextHandle(_ prefix: String) -> (name: String, number: Int?) {
        if let pending = pendingBinding, pending.prefix == prefix {
            pendingBinding = nil
            return (pending.name, nil)
        }
        var n = counters[prefix] ?? 0
        repeat { n += 1 } while isTaken("\(prefix)\(n)")
        counters[prefix] = n
        return ("\(prefix)\(n)", n)
    }

    /// Whether a name already names an object, a client or a built-in.
    func isTaken(_ name: String) -> Bool {
        objects[name] != nil || clients.contains { $0.name == name } || Self.reservedRoots.contains(name)
    }

    /// Whether `name` can name a new client: no client, object or
    /// built-in has it (`client`, the first client's, excepted).
    func isFreeForAClient(_ name: String) -> Bool {
        !clients.contains(where: { $0.name == name }) && objects[name] == nil
            && (!Self.reservedRoots.contains(name) || name == "client")
    }

    /// How many clients the session has.
    var clientCount: Int { clients.count }

    /// Whether `root` names an object, a client or a built-in.
    func isKnownRoot(_ root: String) -> Bool {
        Self.reservedRoots.contains(root) || objects[root] != nil || handle(forID: root) != nil
            || clients.contains { $0.name == root }
    }

    /// Every name a path can start with, for an unknown one's hint.
    var roots: [String] { objects.keys.sorted() + Self.reservedRoots }

    /// `a message (m1)`, for errors about a name in use.
    func describeHandle(_ name: String) -> String {
        if let object = objects[name] {
            let kind = Self.kind(of: object)
            return object.handle == name ? "a \(kind.rawValue)" : "a \(kind.rawValue) (\(object.handle))"
        }
        if clients.contains(where: { $0.name == name }) { return "a client" }
        return "a built-in object"
    }

    func register(_ object: any Inspectable, id: String? = nil) {
        objects.register(object, id: id)
    }

    func object(named handle: String) -> (any Inspectable)? { objects[handle] }

    /// The handle of the object an SDK or server id names, if the session has one.
    func handle(forID id: String) -> String? { objects.handle(forID: id) }

    /// Resolves a handle (or a raw id) to an object of `kind`.
    func resolve(_ word: String, as kind: HandleKind) throws(ScriptError) -> any Inspectable {
        let handle = handle(forID: word) ?? word
        guard let object = objects[handle] ?? clients.first(where: { $0.name == word }) else {
            let candidates =
                objects.keys.filter { kind == .any || objects[$0].map { Self.kind(of: $0) == kind } == true }.sorted()
                + (kind == .client || kind == .any ? clients.map(\.name) : [])
            throw ScriptError(
                .unknownHandle,
                "unknown \(kind == .any ? "handle" : kind.rawValue) \"\(word)\"\(Suggestion.hint(for: word, in: candidates))")
        }
        guard kind == .any || Self.kind(of: object) == kind else {
            throw ScriptError(.wrongKind, "\(word) is a \(Self.kind(of: object).rawValue), not a \(kind.rawValue)")
        }
        return object
    }

    func conversation(_ word: String) throws(ScriptError) -> ConversationObject {
        if handle(forID: word) == nil, objects[word] == nil, Self.looksLikeConversationID(word) {
            // An id learned elsewhere (a push, another device): it gets a
            // handle on the current client, and the SDK asks the server.
            return conversationObject(for: word, client: current, minted: false)
        }
        return try resolve(word, as: .conversation) as! ConversationObject
    }

    /// The id the other side (`agent …`) names `conversation` by on the
    /// server. When this client's conversation has not reached the server
    /// and another user's holds its id there, the agent cannot speak in
    /// it: before, it spoke in the other user's, which the workbench then
    /// showed as this one's (`chatbench explore`, examples/45, run 83).
    func agentConversationId(_ conversation: ConversationObject) throws -> String {
        let serverId = conversation.serverId
        let server = server(of: conversation.client)
        guard let user = conversation.client.userId, let own = try? server.conversations(userId: user),
            !own.contains(where: { $0.id == serverId }), (try? server.messages(conversationId: serverId)) != nil
        else { return serverId }
        throw ScriptError(
            .server,
            "\(conversation.handle) is not on the server yet, and the server's \(serverId) is another user's conversation: "
                + "the agent cannot speak in it")
    }

    /// `c-` and hex digits, as the SDK mints conversation ids.
    static func looksLikeConversationID(_ word: String) -> Bool {
        word.hasPrefix("c-") && word.count > 2 && word.dropFirst(2).allSatisfy(\.isHexDigit)
    }

    func message(_ word: String) throws(ScriptError) -> MessageObject {
        try resolve(word, as: .message) as! MessageObject
    }

    func client(_ word: String) throws(ScriptError) -> ClientObject {
        try resolve(word, as: .client) as! ClientObject
    }

    func watcher(_ word: String) throws(ScriptError) -> WatcherObject {
        try resolve(word, as: .watcher) as! WatcherObject
    }

    static func kind(of object: any Inspectable) -> HandleKind {
        switch object {
        case is WatcherObject: .watcher
        case is ConversationObject: .conversation
        case is MessageObject: .message
        case is ClientObject: .client
        default: .any
        }
    }

    /// The conversation object for an id, made on first sight. With
    /// `sameClient`, one of another client is not reused: an app-chosen id
    /// can name different users' conversations (ConversationAliases).
    /// `minted`: whether the client or the server minted the id, rather
    /// than the script naming it.
    func conversationObject(for id: String, client: ClientObject, sameClient: Bool = false, minted: Bool = true) -> ConversationObject {
        if let handle = handle(forID: id), let object = objects[handle] as? ConversationObject, !sameClient || object.client === client {
            return object
        }
        let object = ConversationObject(handle: nextHandle("c").name, id: id, client: client)
        register(object, id: id)
        if minted { self.minted.learn(id, as: "\(object.handle).id") }
        return object
    }

    /// The message object for an SDK message, made on first sight.
    func messageObject(for id: String, conversationId: String, client: ClientObject) -> MessageObject {
        if let object = objects.message(withID: id) { return object }
        let (handle, number) = nextHandle("m")
        minted.learn(id, as: "\(handle).id")
        return objects.addMessage(id: id, conversationId: conversationId, client: client, handle: handle, number: number)
    }

    /// The handle of a message the other side just wrote in `conversation`
    /// (`agent say`, `agent send`), with what the server stored: the
    /// workbench knows it from the backend, and the client shows it when a
    /// watcher of the app's does.
    func agentMessageObject(for message: WireMessage, in conversation: ConversationObject) -> MessageObject {
        let object = messageObject(for: message.id, conversationId: conversation.id, client: conversation.client)
        if object.latest == nil { object.latest = SeenMessage(message) }
        return object
    }

    /// Binds `name` to an object as well as its own handle (when the object
    /// did not already take the name as its handle). Names are never
    /// rebound: `run` refuses a name in use before the verb runs.
    func bind(_ name: String?, to object: any Inspectable) {
        guard let name, object.handle != name, objects[name] == nil else { return }
        objects[name] = object
    }

    /// The minted values the session knows now, with each conversation's
    /// id on the server as its client knows it at this moment (`c1.serverId`).
    func mintedValues() -> MintedValues {
        guard minted.isKept else { return minted }
        var values = minted
        for conversation in objects.others(ConversationObject.self).sorted(by: { $0.handle < $1.handle }) {
            let serverId = conversation.serverId
            if serverId != conversation.id { values.learn(serverId, as: "\(conversation.handle).serverId") }
        }
        return values
    }
}
