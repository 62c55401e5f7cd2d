import ChatCore
import ChatSDK
import ChatSimulation

/// What a command's handler may do, and all it may do (issue 29, "Handlers
/// get values"): print (``output``), act on the world through the current
/// client (``world``), name objects (``handles``), check and show values
/// (``inspection``) and change the session's settings (``session``).
///
/// The table parses and checks a line's arguments (``Invocation``); the
/// handler gets them with this context, never the interpreter: a verb or
/// an option is added in its table entry, and what a handler needs that
/// this does not give is added here, in one place.
struct CommandContext {
    /// Where the step's lines go.
    let output: StepOutput
    /// The world: the stage, the current client, SDK calls, the clock.
    let world: World
    /// Handles: resolving the words that name objects, binding names.
    let handles: Handles
    /// Values: paths, expectations, help.
    let inspection: Inspection
    /// The session around the world: timing, history, reset, recording, scripts.
    let session: Session

    init(_ interpreter: Interpreter) {
        output = interpreter.output
        world = World(interpreter: interpreter)
        handles = Handles(interpreter: interpreter)
        inspection = Inspection(interpreter: interpreter)
        session = Session(interpreter: interpreter)
    }
}

extension CommandContext {
    /// The world as a command acts on it: through the current client's SDK
    /// calls and the clock.
    struct World {
        fileprivate let interpreter: Interpreter

        /// The embedded world, a server, or a tape.
        var stage: any Stage { interpreter.world }
        var isEmbedded: Bool { interpreter.world.isEmbedded }
        /// The embedded world; nil against a server or a tape.
        var embedded: ChatSimulation.World? { (interpreter.world as? EmbeddedStage)?.world }
        /// Bumped by `net online`: a `net offline --after` armed before it no longer fires.
        var onlineEpoch: OnlineEpoch { interpreter.onlineEpoch }
        /// The client the app's calls go to (`use NAME` changes it).
        var current: ClientObject {
            get { interpreter.current }
            nonmutating set { interpreter.current = newValue }
        }

        /// Another SDK client: an app instance on its own device.
        func makeClient(named name: String, cacheMode: ChatClient.CacheMode, apiKey: String, autoResend: Bool) -> ClientObject {
            interpreter.makeClient(named: name, cacheMode: cacheMode, apiKey: apiKey, autoResend: autoResend)
        }

        /// Runs an SDK call and the world until idle. A `ChatError` is
        /// printed and becomes `error`; nil means it failed or is still pending.
        @discardableResult
        func perform<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) -> T? {
            interpreter.perform(operation)
        }

        /// `error`: the last error of an SDK call.
        var error: ChatError? {
            get { interpreter.lastError }
            nonmutating set { interpreter.lastError = newValue }
        }

        /// Starts a watcher of the current client (`watch`); `binding`: the name the line gives it.
        func startWatcher(_ target: WatcherObject.Target, binding: String?) -> WatcherObject {
            interpreter.startWatcher(target, binding: binding)
        }

        /// Prints an error of an SDK call, which becomes `error`.
        func report(_ error: any Error) { interpreter.report(error) }

        /// Kills and relaunches `client`'s app: rebuilt from its disk cache and outbox.
        func restart(_ client: ClientObject, corruptingCache: Bool) {
            interpreter.restart(client, corruptingCache: corruptingCache)
        }

        /// Runs until nothing is in flight and no recovery is pending.
        func settle() { interpreter.settle() }

        /// `wait HANDLE emits N | state S | done [--within D]`.
        func wait(_ invocation: Invocation) throws -> CommandOutcome { try interpreter.wait(invocation) }
    }

    /// The words that name objects.
    struct Handles {
        fileprivate let interpreter: Interpreter

        /// The object a handle (or a raw id) names, of `kind`.
        func resolve(_ word: String, as kind: HandleKind) throws(ScriptError) -> any Inspectable {
            try interpreter.resolve(word, as: kind)
        }
        func conversation(_ word: String) throws(ScriptError) -> ConversationObject { try interpreter.conversation(word) }
        func message(_ word: String) throws(ScriptError) -> MessageObject { try interpreter.message(word) }
        func client(_ word: String) throws(ScriptError) -> ClientObject { try interpreter.client(word) }
        func watcher(_ word: String) throws(ScriptError) -> WatcherObject { try interpreter.watcher(word) }

        /// Whether `name` can name a new client: no client, object or
        /// built-in has it (`client`, the first client's, excepted).
        func isFreeForAClient(_ name: String) -> Bool {
            !interpreter.clients.contains(where: { $0.name == name }) && interpreter.objects[name] == nil
                && (!Interpreter.reservedRoots.contains(name) || name == "client")
        }

        /// How many clients the session has.
        var clientCount: Int { interpreter.clients.count }

        /// The conversation object for an id, made on first sight (``Interpreter/conversationObject(for:client:sameClient:)``).
        func conversationObject(for id: String, client: ClientObject, sameClient: Bool) -> ConversationObject {
            interpreter.conversationObject(for: id, client: client, sameClient: sameClient)
        }
        /// The message object for an SDK message, made on first sight.
        func messageObject(for id: String, conversationId: String, client: ClientObject) -> MessageObject {
            interpreter.messageObject(for: id, conversationId: conversationId, client: client)
        }
        /// The handle of a message the other side just wrote in `conversation`.
        func agentMessageObject(for message: WireMessage, in conversation: ConversationObject) -> MessageObject {
            interpreter.agentMessageObject(for: message, in: conversation)
        }
        /// The id the other side names `conversation` by on the server.
        func agentConversationId(_ conversation: ConversationObject) throws -> String {
            try interpreter.agentConversationId(conversation)
        }

        /// Binds `name` to an object as well as its own handle.
        func bind(_ name: String?, to object: any Inspectable) { interpreter.bind(name, to: object) }
    }

    /// Values: paths into objects, expectations about them, help.
    struct Inspection {
        fileprivate let interpreter: Interpreter

        /// Whether `root` names an object, a client or a built-in.
        func isKnownRoot(_ root: String) -> Bool { interpreter.isKnownRoot(root) }
        /// Every name a path can start with, for an unknown one's hint.
        var roots: [String] { interpreter.objects.keys.sorted() + Interpreter.reservedRoots }
        func evaluate(_ path: PathExpression) throws(ScriptError) -> Resolved { try interpreter.evaluate(path) }
        /// Prints everything about an object.
        func inspect(_ object: any Inspectable) { interpreter.inspect(object) }
        /// Prints a value.
        func show(_ resolved: Resolved) { interpreter.show(resolved) }
        /// `clock`: the virtual time, as the clock object shows it.
        var clock: String { ClockObject(world: interpreter.world, start: interpreter.start).summary(in: interpreter) }
        /// A field of the server object (`server.messages(c1)`).
        func server(_ field: String, argument: String?) throws(ScriptError) -> Resolved? {
            try ServerObject(world: interpreter.world).field(field, argument: argument, in: interpreter)
        }
        /// `expect PATH [OP VALUE]`.
        func expect(_ tokens: [Token]) throws -> CommandOutcome { try interpreter.expect(tokens) }
        /// `help [VERB|TOPIC|HANDLE|-k WORD]`.
        func help(_ words: [String]) throws(ScriptError) { try interpreter.help(words) }
    }

    /// The session around the world.
    struct Session {
        fileprivate let interpreter: Interpreter

        /// The world's seed.
        var seed: UInt64 { interpreter.options.seed }
        /// `timing on`: after each command, the virtual and the wall time it took.
        var timing: Bool {
            get { interpreter.timing }
            nonmutating set { interpreter.timing = newValue }
        }
        /// `net log on`: the step shows each request the SDK makes.
        var showNetwork: Bool {
            get { interpreter.showNetwork }
            nonmutating set { interpreter.showNetwork = newValue }
        }
        /// The lines typed, earlier sessions' first, redacted.
        var history: [String] { interpreter.historySource?() ?? interpreter.typedLines }
        /// Asks for a fresh world after this step.
        func requestReset() { interpreter.resetRequested = true }
        /// The recorder of this session; nil when not recording.
        var recording: (any RecordingControl)? { interpreter.recording }
        /// The recorded session `reference` names for `verb` (`replay`,
        /// `export`): a file, or a session of this session's recording
        /// database other than this one (``RecordingStore/open(session:db:current:)``).
        func recordedSession(_ reference: String, for verb: String) throws(ScriptError) -> (RecordingStore, RecordedSession) {
            let database = recording?.databasePath
            guard database != nil || RecordingStore.looksLikeFile(reference) else {
                throw ScriptError(
                    .recording,
                    "this session is not recorded, so there is no database to find session \(Format.quoted(reference)) in: name a recording file, or run chatbench \(verb) \(reference) [--db PATH]"
                )
            }
            return try ScriptError.recording { () throws(RecordingError) in
                try RecordingStore.open(session: reference, db: database ?? "", current: recording?.sessionInProgress)
            }
        }
        /// Says why the step failed (``StepResult/failure``).
        func fail(_ reason: String?) { interpreter.stepFailure = reason }

        /// Runs `body`, which runs a script's lines (``execute(_:)``), one
        /// level deeper; refuses to nest deeper than 8 (a script that runs itself).
        func nested(_ body: () throws(ScriptError) -> Void) throws(ScriptError) {
            guard interpreter.runDepth < 8 else { throw ScriptError(.tooDeep, "run is nested too deeply (a script that runs itself?)") }
            interpreter.runDepth += 1
            defer { interpreter.runDepth -= 1 }
            try body()
        }

        /// Runs one line in this session, as a step of its own.
        func execute(_ line: String) -> StepResult { interpreter.execute(line) }
    }
}
