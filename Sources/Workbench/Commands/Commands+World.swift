import ChatCore
import ChatSDK
import ChatSimulation

extension CommandTable {
    /// `--client NAME`: the `net` verbs act on that client's own link.
    static let clientOption = OptionSpec(
        name: "--client", value: .handle(.client), valueName: "NAME",
        summary: "only this client's own link (its device), the others' untouched (default: the whole network)")

    static let worldCommands: [CommandSpec] = [
        CommandSpec(
            name: "net online", group: .world, options: [clientOption],
            summary: "bring the network back (or one client's own link)", example: "net online",
            run: { context, invocation in
                let link = try NetLink(invocation, in: context.handles)
                if link.device == nil { context.world.onlineEpoch.bump() }
                context.world.stage.network.setOnline(true, device: link.device)
                context.output.print("network online\(link.suffix)")
                context.world.stage.runUntilIdle()
                return .done
            }),
        CommandSpec(
            name: "net offline", group: .world,
            options: [
                OptionSpec(
                    name: "--after", value: .duration, valueName: "DURATION",
                    summary: "cut it this far into the next command's work, while its requests are on the wire (embedded world)"),
                InFlightCut.option,
                clientOption,
            ],
            summary: "cut the network: requests fail, realtime connections drop", example: "net offline --client tablet",
            run: { context, invocation in
                let link = try NetLink(invocation, in: context.handles)
                let inFlight = try InFlightCut(invocation, in: context.world)
                guard let delay = invocation.duration("--after") else {
                    let network = context.world.stage.network
                    network.setOnline(false, device: link.device)
                    context.output.print("network offline\(link.suffix)")
                    if let inFlight { context.output.print(inFlight.cut(network.conditions, link: link)) }
                    context.world.stage.runUntilIdle()
                    return .done
                }
                guard let world = context.world.embedded else {
                    throw ScriptError(.needsEmbeddedWorld, "net offline --after needs the embedded world's virtual time")
                }
                let network = world.network
                let online = context.world.onlineEpoch
                let epoch = online.current
                let device = link.device
                world.scheduler.schedule(at: world.now + delay, kind: .lifecycle("net offline (a fault)")) {
                    // A `net online` since closed this window before it opened.
                    guard online.current == epoch else { return }
                    network.conditions.setOnline(false, device: device)
                    if let inFlight { world.trace("network", inFlight.cut(network.conditions, link: link)) }
                }
                context.output.print("the network goes offline\(link.suffix) in \(Format.duration(delay)) of virtual time")
                return .done
            }),
        CommandSpec(
            name: "net latency", group: .world,
            arguments: [ArgumentSpec(name: "DURATION", kind: .duration)], options: [clientOption],
            summary: "one-way latency of the network, or of one client's link (a little seeded jitter is added)",
            example: "net latency 200ms",
            run: { context, invocation in
                let link = try NetLink(invocation, in: context.handles)
                let latency = invocation.duration(0)!
                context.world.stage.network.setLatency(latency, device: link.device)
                context.output.print("latency \(Format.duration(latency))\(link.suffix)")
                return .done
            }),
        CommandSpec(
            name: "net fail", group: .world,
            arguments: [ArgumentSpec(name: "N", kind: .count)],
            options: [
                OptionSpec(
                    name: "--kind", value: .choice(FailureKind.allCases.map(\.rawValue)),
                    valueName: "reset|refused|timeout|503|offline",
                    summary:
                        "how they fail (default reset: lost on the way; refused: no connection; timeout: done, answer lost after 5s; 503: the server unavailable; offline: no network for it)"
                ),
                clientOption,
            ],
            summary: "the next N requests fail on the way (the outbox sends them again)", example: "net fail 2 --kind refused",
            run: { context, invocation in
                let link = try NetLink(invocation, in: context.handles)
                let count = invocation.count(0)!
                let kind = invocation.choice("--kind", as: FailureKind.self) ?? .reset
                context.world.stage.network.failNext(count, kind: kind, device: link.device)
                let requests = "the next \(count) request\(count == 1 ? "" : "s")\(link.of) will fail"
                context.output.print(invocation.option("--kind") == nil ? requests : "\(requests): \(kind.rawValue)")
                return .done
            }),
        CommandSpec(
            name: "net drop", group: .world, options: [InFlightCut.option, clientOption],
            summary: "cut the realtime connections (the SDK reconnects with back-off); --in-flight: the requests on the wire too",
            example: "net drop --in-flight after-commit",
            run: { context, invocation in
                let link = try NetLink(invocation, in: context.handles)
                let inFlight = try InFlightCut(invocation, in: context.world)
                let network = context.world.stage.network
                let count = link.device.map { network.openConnections(device: $0) } ?? network.openConnections
                network.dropConnections(device: link.device)
                context.output.print("dropped \(count) realtime connection\(count == 1 ? "" : "s")\(link.of)")
                if let inFlight { context.output.print(inFlight.cut(network.conditions, link: link)) }
                context.world.stage.runUntilIdle()
                return .done
            }),
        CommandSpec(
            name: "net log", group: .world,
            arguments: [ArgumentSpec(name: "STATE", kind: .choice(["on", "off"]))],
            summary: "show each request the SDK makes, with the server's answer", example: "net log on",
            run: { context, invocation in
                context.session.showNetwork = invocation.argument(0) == "on"
                context.output.print("request log \(context.session.showNetwork ? "on" : "off")")
                return .done
            }),
        CommandSpec(
            name: "clock", group: .world, summary: "the virtual time", example: "clock", keepsError: true,
            run: { context, _ in
                context.output.print(context.inspection.clock)
                return .done
            }),
        CommandSpec(
            name: "clock advance", group: .world,
            arguments: [ArgumentSpec(name: "DURATION", kind: .duration)],
            summary: "move virtual time forward; timers due on the way fire in order", example: "clock advance 2h",
            run: { context, invocation in
                let duration = invocation.duration(0)!
                try context.world.stage.advance(by: duration)
                context.output.print("clock \(context.inspection.clock)")
                return .done
            }),
        CommandSpec(
            name: "server users", group: .world, summary: "the users the backend knows", example: "server users",
            run: { context, _ in
                let users = try context.world.stage.server.users()
                if users.isEmpty { context.output.print("no users") }
                for user in users {
                    let conversations = user.conversationCount
                    let sessions = user.sessionCount
                    context.output.print(
                        "\(user.id)\(user.isAnonymous ? " (anonymous)" : ""): \(conversations) conversation\(conversations == 1 ? "" : "s"), \(sessions) session\(sessions == 1 ? "" : "s")"
                    )
                }
                return .done
            }),
        CommandSpec(
            name: "server sessions", group: .world,
            arguments: [ArgumentSpec(name: "ID", kind: .text)],
            summary: "the open server sessions of a user (method@device)", example: "server sessions alice",
            run: { context, invocation in
                context.inspection.show(try context.inspection.server("sessions", argument: invocation.argument(0))!)
                return .done
            }),
        CommandSpec(
            name: "server pushes", group: .world,
            arguments: [ArgumentSpec(name: "ID", kind: .text)],
            summary: "the devices subscribed to a user's pushes, and the pushes sent to them", example: "server pushes alice",
            run: { context, invocation in
                let inspection = context.inspection
                context.output.print("subscribed devices:")
                inspection.show(try inspection.server("pushes", argument: invocation.argument(0))!)
                context.output.print("pushes sent:")
                inspection.show(try inspection.server("pushlog", argument: invocation.argument(0))!)
                return .done
            }),
        CommandSpec(
            name: "server settings", group: .world,
            arguments: [ArgumentSpec(name: "KEY=VALUE", kind: .text, optional: true, variadic: true)],
            summary: "the app's settings, or change them", example: "server settings allowUserIdOnly=false",
            run: { context, invocation in
                let server = context.world.stage.server
                for (key, value) in try keyValues(invocation.arguments.map(\.text)).sorted(by: { $0.key < $1.key }) {
                    do { try server.updateSettings([HTTPWire.AppSetting(key: key, value: value)]) } catch {
                        throw ScriptError(.server, (error as? WireError)?.message ?? "\(error)")
                    }
                }
                for setting in try server.settings() { context.output.print("\(setting.key) = \(setting.value)") }
                return .done
            }),
        CommandSpec(
            name: "server app new", group: .world,
            arguments: [ArgumentSpec(name: "KEY", kind: .text, secret: true)],
            summary:
                "another app on the embedded backend, with this API key and the demo app's settings and JWT secret: its users and conversations are its own (client new NAME --api-key KEY signs in to it)",
            example: "server app new second-app",
            run: { context, invocation in
                guard let world = context.world.embedded else {
                    throw ScriptError(
                        .needsEmbeddedWorld,
                        "server app new needs the embedded world: a server's operator adds apps with `chatbench apps add KEY --db FILE`")
                }
                let key = invocation.argument(0)!
                do { try world.backend.createApp(apiKey: key, jwtSecret: World.jwtSecret) } catch {
                    throw ScriptError(.server, "cannot make the app: \((error as? WireError)?.message ?? "\(error)")")
                }
                // The key is a secret (W6): not echoed, so that a transcript
                // shows no placeholder whose number depends on the recording.
                context.output.print("app made with that API key; client new NAME --api-key KEY signs in to it")
                return .done
            }),
        CommandSpec(
            name: "server attachments", group: .world,
            summary:
                "the attachments the backend holds, oldest first; uploads no message names are dropped 24h after upload (embedded only)",
            example: "server attachments",
            run: { context, _ in
                let now = context.world.stage.now
                let attachments = try context.world.stage.server.attachments()
                if attachments.isEmpty { context.output.print("no attachments") }
                for attachment in attachments {
                    let use =
                        attachment.purpose == "profile"
                        ? "profile image" : attachment.conversationId.map { "in \($0)" } ?? "named by no message"
                    let age = Format.duration(milliseconds: now.milliseconds - attachment.createdAt.milliseconds)
                    context.output.print(
                        "\(attachment.id) by \(attachment.uploaderId), \(attachment.mimeType), \(attachment.size) bytes, \(use), uploaded \(age) ago"
                    )
                }
                return .done
            }),
        CommandSpec(
            name: "server messages", group: .world,
            arguments: [ArgumentSpec(name: "C", kind: .handle(.conversation))],
            summary: "the messages of a conversation as the server holds them", example: "server messages c1",
            run: { context, invocation in
                let conversation = try context.handles.conversation(invocation.argument(0)!)
                guard let resolved = try context.inspection.server("messages", argument: conversation.handle) else { return .done }
                context.inspection.show(resolved)
                return .done
            }),
    ]
}

/// Which link a `net` verb acts on: the whole network, or one client's
/// device (`--client NAME`).
struct NetLink {
    /// The client's device id; nil: the whole network.
    let device: String?
    let name: String?

    init(_ invocation: Invocation, in handles: CommandContext.Handles) throws(ScriptError) {
        guard let word = invocation.option("--client") else {
            (device, name) = (nil, nil)
            return
        }
        let client = try handles.client(word)
        (device, name) = (client.deviceId, client.name)
    }

    /// ` for tablet`, after what was done.
    var suffix: String { name.map { " for \($0)" } ?? "" }
    /// ` of tablet`, after the requests or connections counted.
    var of: String { name.map { " of \($0)" } ?? "" }
}
