import ChatBackend
import ChatCore
import ChatSimulation

/// What an object's fields, summary and history may read of the rest of
/// the session (issue 29): the other objects by name, the clients, the
/// stage and when the session began; never the interpreter.
/// ``SessionObjects`` is the session's; a test can give one of its own.
protocol InspectionScope: AnyObject {
    /// The embedded world, a server, or a tape.
    var stage: any Stage { get }
    /// When the session began: what times are stamped from.
    var start: Instant { get }
    /// Every client of the session, the first (`client`) first.
    var clients: [ClientObject] { get }
    /// The object a handle names; nil when none does.
    func object(named handle: String) -> (any Inspectable)?
    /// The handle of the object an SDK or server id names, if the session has one.
    func handle(forID id: String) -> String?
    /// The conversation a handle or an id names (an id learned elsewhere
    /// gets a handle on the current client).
    func conversation(_ word: String) throws(ScriptError) -> ConversationObject
    /// The client a handle or a name names.
    func client(_ word: String) throws(ScriptError) -> ClientObject
}

extension InspectionScope {
    /// The object an SDK or server id names, when the session has one;
    /// the id itself otherwise.
    func reference(_ id: String) -> Resolved {
        if let handle = handle(forID: id), let object = object(named: handle) { return .object(object) }
        return .value(.string(id))
    }

    /// The server as `client`'s app sees it: ids are per app, so a client
    /// of another app (`server app new`) is answered in that app (in the
    /// embedded world; a running server answers in the workbench's app).
    func server(of client: ClientObject) -> any ServerSide {
        guard client.apiKey != stage.app.apiKey, let embedded = (stage as? EmbeddedStage)?.world else { return stage.server }
        return EmbeddedServerSide(backend: embedded.backend, apiKey: client.apiKey)
    }

    /// What `clock.timers` and `inspect clock` list: every pending wake-up,
    /// with when it is due, its kind and what it is for.
    func describeWakeUps() -> [StyledText] {
        stage.pendingWakeUps.map { wakeUp in
            EventLog.stamped(
                wakeUp.time, since: start,
                "in \(Format.duration(wakeUp.time - stage.now)) \(wakeUp.kind.category.rawValue): \(wakeUp.kind.purpose)")
        }
    }
}
