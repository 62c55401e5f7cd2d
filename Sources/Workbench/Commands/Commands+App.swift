import ChatSDK

extension CommandTable {
    static let appCommands: [CommandSpec] = [
        CommandSpec(
            name: "app restart", group: .world,
            options: [OptionSpec(name: "--corrupt-cache", value: nil, summary: "overwrite the disk cache with garbage first")],
            summary: "kill and relaunch the app: the client is rebuilt from its disk cache and outbox",
            example: "app restart",
            run: { context, invocation in
                context.world.restart(context.world.current, corruptingCache: invocation.flag("--corrupt-cache"))
                return .done
            }),
        CommandSpec(
            name: "app shutdown", group: .world,
            summary: "shutdown(): the app stops its client; every later call fails with clientShutDown (until app restart)",
            example: "app shutdown",
            run: { context, _ in
                let object = context.world.current
                let client = object.client
                context.world.perform { await client.shutdown() }
                object.isShutDown = true
                context.output.print("\(object.name) shut down: its calls fail with clientShutDown until app restart")
                return .done
            }),
        CommandSpec(
            name: "app background", group: .world,
            summary: "the app goes to the background: the realtime connection closes",
            example: "app background",
            run: { context, _ in
                let client = context.world.current.client
                context.world.perform { await client.applicationDidEnterBackground() }
                context.output.print("\(context.world.current.name) in the background")
                return .done
            }),
        CommandSpec(
            name: "app foreground", group: .world,
            summary: "the app comes back: it reconnects and the refetch trigger refreshes active watchers",
            example: "app foreground",
            run: { context, _ in
                let client = context.world.current.client
                context.output.print("\(context.world.current.name) in the foreground")
                context.world.perform { await client.applicationWillEnterForeground() }
                return .done
            }),
        CommandSpec(
            name: "typing", group: .data,
            arguments: [ArgumentSpec(name: "C", kind: .handle(.conversation)), ArgumentSpec(name: "STATE", kind: .choice(["on", "off"]))],
            summary: "setIsTyping: tell the other side the user is typing (renewed while on)",
            example: "typing c1 on",
            run: { context, invocation in
                let conversation = try context.handles.conversation(invocation.argument(0)!)
                let on = invocation.argument(1) == "on"
                let client = conversation.client.client
                let id = conversation.id
                guard context.world.perform({ try await client.setIsTyping(on, in: id) }) != nil else { return .done }
                context.output.print(
                    "\(conversation.client.userId ?? "user") \(on ? "is typing" : "stopped typing") in \(conversation.handle)")
                return .done
            }),
    ]
}
