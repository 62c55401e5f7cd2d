import ChatSDK

extension CommandTable {
    static let appCommands: [CommandSpec] = [
        CommandSpec(
            name: "app restart", group: .world,
            options: [OptionSpec(name: "--corrupt-cache", value: nil, summary: "overwrite the disk cache with garbage first")],
            summary: "kill and relaunch the app: the client is rebuilt from its disk cache and outbox",
            example: "app restart",
            run: { interpreter, invocation in
                interpreter.restart(interpreter.current, corruptingCache: invocation.flag("--corrupt-cache"))
            }),
        CommandSpec(
            name: "app shutdown", group: .world,
            summary: "shutdown(): the app stops its client; every later call fails with clientShutDown (until app restart)",
            example: "app shutdown",
            run: { interpreter, _ in
                let object = interpreter.current!
                let client = object.client
                interpreter.perform { await client.shutdown() }
                object.isShutDown = true
                interpreter.print("\(object.name) shut down: its calls fail with clientShutDown until app restart")
            }),
        CommandSpec(
            name: "app background", group: .world,
            summary: "the app goes to the background: the realtime connection closes",
            example: "app background",
            run: { interpreter, _ in
                let client = interpreter.current.client
                interpreter.perform { await client.applicationDidEnterBackground() }
                interpreter.print("\(interpreter.current.name) in the background")
            }),
        CommandSpec(
            name: "app foreground", group: .world,
            summary: "the app comes back: it reconnects and the refetch trigger refreshes active watchers",
            example: "app foreground",
            run: { interpreter, _ in
                let client = interpreter.current.client
                interpreter.print("\(interpreter.current.name) in the foreground")
                interpreter.perform { await client.applicationWillEnterForeground() }
            }),
        CommandSpec(
            name: "typing", group: .data,
            arguments: [ArgumentSpec(name: "C", kind: .handle(.conversation)), ArgumentSpec(name: "STATE", kind: .choice(["on", "off"]))],
            summary: "setIsTyping: tell the other side the user is typing (renewed while on)",
            example: "typing c1 on",
            run: { interpreter, invocation in
                let conversation = try interpreter.conversation(invocation.argument(0)!)
                let on = invocation.argument(1) == "on"
                let client = conversation.client.client
                let id = conversation.id
                guard interpreter.perform({ try await client.setIsTyping(on, in: id) }) != nil else { return }
                interpreter.print(
                    "\(conversation.client.userId ?? "user") \(on ? "is typing" : "stopped typing") in \(conversation.handle)")
            }),
    ]
}
