import ChatSDK

extension CommandTable {
    /// The device's push token (C4): what an app does when the platform
    /// hands it a token, and when it no longer wants pushes.
    static let pushCommands: [CommandSpec] = [
        CommandSpec(
            name: "push register", group: .identity,
            arguments: [ArgumentSpec(name: "TOKEN", kind: .text)],
            summary: "registerPushToken(_:): this device's push token for the signed-in user (replaces the one it had)",
            example: "push register apns-1f2e",
            run: { context, invocation in
                let object = context.world.current
                let token = invocation.argument(0)!
                let client = object.client
                guard context.world.perform({ try await client.registerPushToken(token) }) != nil else { return .done }
                context.output.print("push token \(token) registered for \(client.deviceId) on \(object.name)")
                return .done
            }),
        CommandSpec(
            name: "push unregister", group: .identity,
            summary: "unregisterPushToken(): this device gets no more pushes of the signed-in user",
            example: "push unregister",
            run: { context, _ in
                let object = context.world.current
                let client = object.client
                guard context.world.perform({ try await client.unregisterPushToken() }) != nil else { return .done }
                context.output.print("push token of \(client.deviceId) unregistered on \(object.name)")
                return .done
            }),
    ]
}
