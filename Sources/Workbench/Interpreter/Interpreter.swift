import ChatBackend
import ChatCore
import ChatSDK
import ChatSimulation
import Foundation

/// Runs lines of the command language against one world.
///
/// Everything here runs on the thread that calls `execute`, which is also
/// the thread that pumps the world: objects updated by watcher tasks are
/// never touched concurrently.
// @unchecked Sendable: mutable, and touched only by whoever holds the stage
// (`Stage.exclusively`): the thread running a command, which also runs the
// world's jobs, or in server mode between commands the background pump,
// under the same lock. Never by two threads at once.
final class Interpreter: @unchecked Sendable {
    let world: any Stage
    let start: Instant
    let log = EventLog()
    let table: CommandTable
    let options: WorkbenchOptions

    var clients: [ClientObject] = []
    /// Bumped by `net online`: a `net offline --after` armed before it and
    /// not yet due no longer fires (the window it opened is closed).
    let onlineEpoch = OnlineEpoch()
    var current: ClientObject!
    /// Handle → object, for every object the session created or saw, and
    /// SDK or server id → handle.
    var objects = ObjectRegistry()
    var counters: [String: Int] = [:]
    /// The name `NAME = VERB …` gives the object the verb makes, taken by
    /// the first handle of that kind handed out while the verb runs.
    var pendingBinding: (name: String, prefix: String)?
    var lastError: ChatError?
    var showNetwork = false
    /// Where this session's clients keep their disk caches: a fresh folder,
    /// removed when the session ends (never printed: output stays the same).
    let cacheFolder: String
    var runDepth = 0
    /// `timing on`.
    var timing = false
    /// `reset` ran: the session replaces this interpreter after the step.
    var resetRequested = false
    /// The lines typed in this session, redacted (what `history` lists
    /// when no `historySource` is set).
    var typedLines: [String] = []
    /// Earlier lines, from the REPL's history store.
    var historySource: (() -> [String])?
    /// The recorder of this session, for `sessions` and `record stop`; nil when not recording.
    weak var recording: (any RecordingControl)?

    /// What the current step prints.
    let output = StepOutput()
    var sawExpectFailure = false
    /// Why the current step failed, when it did: what an expect or a wait
    /// found, or the script error's message (`StepResult.failure`).
    var stepFailure: String?
    var sawScriptError = false

    init(options: WorkbenchOptions) throws {
        self.options = options
        cacheFolder = FileManager.default.temporaryDirectory.appendingPathComponent("chatbench-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: cacheFolder, withIntermediateDirectories: true)
        world = try Self.makeStage(options)
        start = world.now
        table = CommandTable.standard
        let log = self.log
        world.onTrace { time, trace in
            log.append(time, WorldEvent(trace))
        }
        current = makeClient(named: "client", cacheMode: .disk, apiKey: World.apiKey)
        world.runUntilIdle()
        _ = log.take()
    }

    deinit {
        // Shut every client down so that their tasks end and nothing of this
        // session outlives it (a test run holds many sessions in one process).
        let sdkClients = clients.map(\.client)
        world.exclusively {
            _ = world.run { for client in sdkClients { await client.shutdown() } }
            world.runUntilIdle()
        }
        world.stop()
        try? FileManager.default.removeItem(atPath: cacheFolder)
    }

    // MARK: Output

    /// Prints a line of the step's output (``StepOutput/print(_:as:)``).
    func print(_ line: String, as style: OutputStyle? = nil) { output.print(line, as: style) }

    /// Prints lines made as text elsewhere, plain (``StepOutput/print(lines:)``).
    func print(lines printed: [String]) { output.print(lines: printed) }

    /// Prints `line` after the events of the step (``StepOutput/printAfterEvents(_:as:)``).
    func printAfterEvents(_ line: String, as style: OutputStyle? = nil) { output.printAfterEvents(line, as: style) }

    // MARK: The session's scratch folder

    /// What a line writes for the session's own folder: `export last
    /// $SCRATCH/t.chat`. A file written there is where no other session
    /// or run writes (two runs of one transcript at once do not collide),
    /// and the folder goes with the session (it is in its cache folder).
    static let scratchWord = scratchMark.description
    private static let scratchMark: StaticString = "$SCRATCH"

    /// The folder `$SCRATCH` stands for.
    var scratchFolder: String { cacheFolder + "/scratch" }

    /// `tokens` with `$SCRATCH` standing for the folder (made at its first use).
    func expandingScratch(_ tokens: [Token]) throws(ScriptError) -> [Token] {
        // Byte for byte first: Foundation's `contains` of a string, a search
        // with options, took ~4 k instructions a token, ~17 k of every send
        // (issue 31). What it finds holds these bytes, so it decides only then.
        guard tokens.contains(where: { $0.text.containsASCII(Self.scratchMark) && $0.text.contains(Self.scratchWord) }) else {
            return tokens
        }
        if output.scratchFolder == nil {
            do {
                try FileManager.default.createDirectory(atPath: scratchFolder, withIntermediateDirectories: true)
            } catch {
                throw ScriptError(.file, "cannot make the session's folder for \(Self.scratchWord): \(error.localizedDescription)")
            }
            // From now on, what a step prints shows it as $SCRATCH.
            output.scratchFolder = scratchFolder
        }
        return tokens.map { token in
            var token = token
            token.text = token.text.replacingOccurrences(of: Self.scratchWord, with: scratchFolder)
            return token
        }
    }

    // MARK: Handles

    /// The next handle with this prefix: `w1`, `w2`…, skipping names the
    /// user bound; or the name being bound, for the object it names.
    func nextHandle(_ prefix: String) -> String {
        if let pending = pendingBinding, pending.prefix == prefix {
            pendingBinding = nil
            return pending.name
        }
        var n = counters[prefix] ?? 0
        repeat { n += 1 } while isTaken("\(prefix)\(n)")
        counters[prefix] = n
        return "\(prefix)\(n)"
    }

    /// Whether a name already names an object, a client or a built-in.
    func isTaken(_ name: String) -> Bool {
        objects[name] != nil || clients.contains { $0.name == name } || Self.reservedRoots.contains(name)
    }

    func register(_ object: any Inspectable, id: String? = nil) {
        objects.register(object, id: id)
    }

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
            return conversationObject(for: word, client: current)
        }
        return try resolve(word, as: .conversation) as! ConversationObject
    }

    /// The server as `client`'s app sees it: ids are per app, so a client
    /// of another app (`server app new`) is answered in that app (in the
    /// embedded world; a running server answers in the workbench's app).
    func server(of client: ClientObject) -> any ServerSide {
        guard client.apiKey != World.apiKey, let embedded = (world as? EmbeddedStage)?.world else { return world.server }
        return EmbeddedServerSide(backend: embedded.backend, apiKey: client.apiKey)
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

    /// The object an SDK or server id names, when the session has one;
    /// the id itself otherwise.
    func reference(_ id: String) -> Resolved {
        if let handle = handle(forID: id), let object = objects[handle] { return .object(object) }
        return .value(.string(id))
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

    /// The conversation object for an SDK conversation, made on first sight.
    /// The conversation object for an id, made on first sight. With
    /// `sameClient`, one of another client is not reused: an app-chosen id
    /// can name different users' conversations (ConversationAliases).
    func conversationObject(for id: String, client: ClientObject, sameClient: Bool = false) -> ConversationObject {
        if let handle = handle(forID: id), let object = objects[handle] as? ConversationObject, !sameClient || object.client === client {
            return object
        }
        let object = ConversationObject(handle: nextHandle("c"), id: id, client: client)
        register(object, id: id)
        return object
    }

    /// The message object for an SDK message, made on first sight.
    func messageObject(for id: String, conversationId: String, client: ClientObject) -> MessageObject {
        if let object = objects.message(withID: id) { return object }
        let handle = nextHandle("m")
        // A name the user chose is no number the counter handed out (that
        // one is taken, and could not have been chosen).
        let number = counters["m"].flatMap { handle == "m\($0)" ? $0 : nil }
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

    // MARK: Running the world

    /// Runs an SDK call and the world until idle. A `ChatError` is printed
    /// and becomes `error`; nil means it failed or is still pending.
    @discardableResult
    func perform<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) -> T? {
        switch world.run(operation) {
        case .success(let value)?: return value
        case .failure(let error)?:
            report(error)
            return nil
        case nil:
            print("(still waiting: it completes when the clock reaches a timer; try clock advance or settle)")
            return nil
        }
    }

    func report(_ error: any Error) {
        let chatError: ChatError =
            switch error {
            case let error as ChatError: error
            case let error as WireError: ChatError(ChatError.Code(error.code), error.message)
            default: ChatError(ChatError.Code(rawValue: "error"), "\(error)")
            }
        lastError = chatError
        print("error: \(chatError.code) — \(chatError.message)", as: .failure)
    }
}

extension Interpreter {
    /// The stage the options ask for: a tape, a server, or the embedded world.
    static func makeStage(_ options: WorkbenchOptions) throws -> any Stage {
        if let tape = options.tape {
            return try TapeStage(
                seed: options.seed, serverURL: options.serverURL ?? "tape", source: tape, interruption: options.interruption)
        }
        if let url = options.serverURL { return try ServerStage(url: url, seed: options.seed, interruption: options.interruption) }
        return try EmbeddedStage(seed: options.seed, interruption: options.interruption)
    }
}
