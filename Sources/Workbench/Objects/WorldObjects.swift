import ChatBackend
import ChatCore
import ChatSDK
import ChatSimulation

/// `error`: the error of the most recent command.
final class ErrorObject: Inspectable {
    let error: ChatError?
    init(error: ChatError?) { self.error = error }
    var handle: String { "error" }
    var comparable: Value { error.map { .string($0.code.rawValue) } ?? .none }
    let fieldNames = ["code", "message"]

    func field(_ name: String, argument: String?, in scope: any InspectionScope) throws(ScriptError) -> Resolved? {
        switch name {
        case "code": .value(error.map { .string($0.code.rawValue) } ?? .none)
        case "message": .value(error.map { .string($0.message) } ?? .none)
        default: nil
        }
    }

    func summary(in scope: any InspectionScope) -> String {
        error.map { "\($0.code) — \($0.message)" } ?? "none"
    }
}

/// `server`: the backend as the other side sees it.
final class ServerObject: Inspectable {
    let world: any Stage
    init(world: any Stage) { self.world = world }
    var handle: String { "server" }
    let fieldNames = [
        "users", "requests", "messages(C)", "sessions(ID)", "pushes(ID)", "pushlog(ID)", "attributes(ID)", "conversations(ID)", "settings",
    ]

    func field(_ name: String, argument: String?, in scope: any InspectionScope) throws(ScriptError) -> Resolved? {
        func needs(_ what: String) throws(ScriptError) -> String {
            guard let argument, !argument.isEmpty else {
                throw ScriptError(
                    .missingArgument,
                    "server.\(name) needs \(what) in parentheses, as in server.\(name)(\(what == "a conversation" ? "c1" : "alice"))")
            }
            return argument
        }
        let server = world.server
        do {
            return try field(name, server: server, needs: needs, in: scope)
        } catch let error as ScriptError {
            throw error
        } catch {
            throw ScriptError(.server, "the server could not answer server.\(name): \(error)")
        }
    }

    private func field(
        _ name: String, server: any ServerSide, needs: (String) throws(ScriptError) -> String,
        in scope: any InspectionScope
    ) throws -> Resolved? {
        switch name {
        case "users":
            return .list(try server.users().map { .value(.string($0.id)) })
        case "requests":
            return .value(.int(Int64(world.network.requestCount)))
        case "messages":
            let word = try needs("a conversation")
            let conversation = try? scope.conversation(word)
            let id = conversation?.serverId ?? word
            // A conversation of a client of another app (server app new) is
            // read in that app: ids are per app.
            var holder = server
            if let conversation, conversation.client.apiKey != scope.stage.app.apiKey { holder = scope.server(of: conversation.client) }
            do {
                let messages = try holder.messages(conversationId: id)
                return .list(messages.map { .object(ServerMessageObject(message: $0, scope: scope)) })
            } catch {
                throw ScriptError(.unknownHandle, "the server has no conversation \(word)")
            }
        case "sessions":
            let user = try needs("a user id")
            return .list(
                try server.sessions(userId: user).map { .value(.string("\($0.authenticationType.rawValue)@\($0.deviceId ?? "no device")")) }
            )
        case "pushes":
            let user = try needs("a user id")
            // A device with a push token names it (C4).
            return .list(
                try server.pushSubscriptions(userId: user).map { device in
                    .value(.string(device.pushToken.map { "\(device.deviceId) (token \($0))" } ?? device.deviceId))
                })
        case "pushlog":
            let user = try needs("a user id")
            return .list(
                try server.pushes(userId: user).map { push in
                    .value(.string("\(push.deviceId)\(push.pushToken.map { " (token \($0))" } ?? ""): \(push.preview)"))
                })
        case "attributes":
            let user = try needs("a user id")
            let attributes = try server.users().first { $0.id == user }?.attributes ?? [:]
            return .list(attributes.sorted { $0.key < $1.key }.map { .value(.string("\($0.key)=\($0.value)")) })
        case "settings":
            return .list(try server.settings().map { .value(.string("\($0.key)=\($0.value)")) })
        case "conversations":
            return .list(try server.conversations(userId: try needs("a user id")).map { scope.reference($0.id) })
        default:
            return nil
        }
    }

    func summary(in scope: any InspectionScope) -> String {
        let users = (try? world.server.users()) ?? []
        return
            "server: \(world.server.label), \(users.count) user\(users.count == 1 ? "" : "s"), \(world.network.requestCount) request\(world.network.requestCount == 1 ? "" : "s") so far"
    }
}

/// A message as the server holds it.
final class ServerMessageObject: Inspectable {
    let message: WireMessage
    let handle: String
    init(message: WireMessage, scope: any InspectionScope) {
        self.message = message
        handle = scope.handle(forID: message.id) ?? message.id
    }
    let fieldNames = ["id", "seq", "text", "author"]

    var text: Value {
        if case .text(let text) = message.content { return .string(text) }
        return .none
    }

    var author: String {
        switch message.author {
        case .user(let id): id
        case .provider(let name): name
        case .system: "system"
        }
    }

    func field(_ name: String, argument: String?, in scope: any InspectionScope) throws(ScriptError) -> Resolved? {
        switch name {
        case "id": .value(.string(message.id))
        case "seq": .value(.int(message.seq))
        case "text": .value(text)
        case "author": .value(.string(author))
        default: nil
        }
    }

    func summary(in scope: any InspectionScope) -> String {
        "#\(message.seq) \(author): \(Format.content(MessageContent(message.content))) (\(handle))"
    }
}

/// `provider`: the current client's token provider.
final class ProviderObject: Inspectable {
    let client: ClientObject
    init(client: ClientObject) { self.client = client }
    var handle: String { "provider" }
    let fieldNames = ["mode", "calls"]

    func field(_ name: String, argument: String?, in scope: any InspectionScope) throws(ScriptError) -> Resolved? {
        switch name {
        case "mode": .value(.string(client.provider.mode.description))
        case "calls": .value(.int(Int64(client.provider.calls)))
        default: nil
        }
    }

    func summary(in scope: any InspectionScope) -> String {
        "provider of \(client.name): \(client.provider.mode), asked \(client.provider.calls) time\(client.provider.calls == 1 ? "" : "s")"
    }
}

/// `clock`: the world's virtual time.
final class ClockObject: Inspectable {
    let world: any Stage
    let start: Instant
    init(world: any Stage, start: Instant) {
        self.world = world
        self.start = start
    }
    var handle: String { "clock" }
    /// `timers` (every pending wake-up) is listed by `inspect clock` after
    /// the fields, one a line.
    let fieldNames = ["now", "elapsed", "pending"]
    let pathOnlyFieldNames = ["timers"]

    func field(_ name: String, argument: String?, in scope: any InspectionScope) throws(ScriptError) -> Resolved? {
        switch name {
        case "now": .value(.string(world.now.description))
        case "elapsed": .value(.string(Format.duration(world.now - start)))
        case "timers": .list(scope.describeWakeUps().map { .value(.string($0.text)) })
        case "pending": .value(.int(Int64(world.pendingWakeUps.count)))
        default: nil
        }
    }

    func summary(in scope: any InspectionScope) -> String {
        "\(world.now) (\(Format.duration(world.now - start)) since start)"
    }

    func history(in scope: any InspectionScope) -> [StyledText] {
        let wakeUps = scope.describeWakeUps()
        return wakeUps.isEmpty ? [StyledText("none pending")] : wakeUps
    }

    var historyTitle: String { "timers" }
}

/// `net`: the simulated network.
final class NetObject: Inspectable {
    let world: any Stage
    init(world: any Stage) { self.world = world }
    var handle: String { "net" }
    let fieldNames = ["online", "latency", "requests", "connections", "failing"]

    func field(_ name: String, argument: String?, in scope: any InspectionScope) throws(ScriptError) -> Resolved? {
        let network = world.network
        // `net.online(tablet)`, `net.latency(tablet)`: a client's own link.
        let device: String?
        if let argument {
            device = try scope.client(argument).deviceId
        } else {
            device = nil
        }
        switch name {
        case "online": return .value(.bool(network.isOnline(device: device)))
        case "latency": return .value(.string(Format.duration(network.latency(device: device))))
        case "requests": return .value(.int(Int64(network.requestCount)))
        case "connections": return .value(.int(Int64(network.openConnections)))
        case "failing": return .value(.int(Int64(network.pendingFailures)))
        default: return nil
        }
    }

    func summary(in scope: any InspectionScope) -> String {
        let network = world.network
        // Clients whose own link differs from the network (`--client`).
        let links = scope.clients.compactMap { client -> String? in
            var differences: [String] = []
            if network.isOnline, !network.isOnline(device: client.deviceId) { differences.append("offline") }
            let latency = network.latency(device: client.deviceId)
            if latency != network.latency { differences.append("latency \(Format.duration(latency))") }
            return differences.isEmpty ? nil : "; \(client.name): " + differences.joined(separator: ", ")
        }
        return
            "net: \(network.isOnline ? "online" : "offline"), latency \(Format.duration(network.latency)), \(Format.count(network.openConnections, "realtime connection")), \(Format.count(network.requestCount, "request"))"
            + links.joined()
    }
}
