import ChatSDK
import ChatSimulation

extension CommandTable {
    static let clientCommands: [CommandSpec] = [
        CommandSpec(
            name: "client new", group: .client,
            arguments: [ArgumentSpec(name: "NAME", kind: .text)],
            options: [
                OptionSpec(
                    name: "--cache", value: .choice(["disk", "memory", "off"]), valueName: "disk|memory|off",
                    summary: "where the client caches (default disk)"),
                OptionSpec(
                    name: "--api-key", value: .text, valueName: "KEY", summary: "the app's API key (default the embedded app's)",
                    secret: true),
                OptionSpec(
                    name: "--no-auto-resend", value: nil,
                    summary: "autoResend off: a send that fails on the way, or offline, fails at once with the reason"),
            ],
            summary: "create another SDK client (an app instance on its own device) and switch to it",
            example: "client new phone2 --cache memory",
            run: { context, invocation in
                let name = invocation.argument(0)!
                guard name.allSatisfy(PathExpression.isIdentifierCharacter), name.first?.isLetter == true else {
                    throw ScriptError(.badValue, "a client name is a word of letters, digits, - and _, got \"\(name)\"")
                }
                guard context.handles.isFreeForAClient(name) else {
                    throw ScriptError(.nameTaken, "the name \(name) is taken")
                }
                let cache = invocation.choice("--cache", as: ChatClient.CacheMode.self) ?? .disk
                let client = context.world.makeClient(
                    named: name, cacheMode: cache, apiKey: invocation.option("--api-key") ?? context.world.stage.app.apiKey,
                    autoResend: !invocation.flag("--no-auto-resend"))
                context.world.current = client
                context.world.stage.runUntilIdle()
                let resend = client.autoResend ? "" : ", autoResend off"
                context.output.print("\(name) = new client (cache \(cache.rawValue)\(resend)); now using \(name)")
                return .done
            }),
        CommandSpec(
            name: "use", group: .client,
            arguments: [ArgumentSpec(name: "NAME", kind: .handle(.client))],
            summary: "make another client the current one",
            example: "use client",
            run: { context, invocation in
                let client = try context.handles.client(invocation.argument(0)!)
                context.world.current = client
                context.output.print("now using \(client.name)")
                return .done
            }),
        CommandSpec(
            name: "whoami", group: .client,
            summary: "the current client's user and how they signed in",
            example: "whoami",
            keepsError: false,
            run: { context, _ in
                let client = context.world.current
                guard let user = client.userId else {
                    context.output.print("nobody on \(client.name) (session \(client.session))")
                    return .done
                }
                context.output.print("\(user) on \(client.name), auth \(client.auth?.rawValue ?? "none"), session \(client.session)")
                return .done
            }),
    ]

    static let identityCommands: [CommandSpec] = [
        CommandSpec(
            name: "user set", group: .identity,
            arguments: [ArgumentSpec(name: "ID", kind: .text)],
            summary: "setCurrentUser(userId:): tokens come from the provider when first needed",
            example: "user set alice",
            run: { context, invocation in
                let client = context.world.current
                let id = invocation.argument(0)!
                let sdk = client.client
                let before = context.world.stage.network.requestCount
                guard context.world.perform({ try await sdk.setCurrentUser(userId: id) }) != nil else { return .done }
                client.userId = id
                client.auth = .tokens
                let requests = context.world.stage.network.requestCount - before
                context.output.print(
                    "user \(id) set on \(client.name) (\(requests == 0 ? "no request" : Format.count(requests, "request")))")
                return .done
            }),
        leaving(
            "user clear", summary: "clearCurrentUser(): remove every local trace of the user", example: "user clear",
            call: { await $0.clearCurrentUser() },
            said: { user, object, _ in user.map { "user \($0) cleared from \(object.name)" } ?? "no user to clear on \(object.name)" }),
    ]

    static let credentialCommands: [CommandSpec] = [
        CommandSpec(
            name: "provider", group: .credentials,
            arguments: [
                ArgumentSpec(name: "MODE", kind: .choice(["ok", "fail", "unreachable", "malformed", "expired", "delay"])),
                ArgumentSpec(name: "DURATION", kind: .duration, optional: true),
            ],
            summary: "how the token provider answers from now on",
            example: "provider delay 2s",
            run: { context, invocation in
                let mode: SimulatedTokenProvider.Mode
                switch invocation.argument(0)! {
                case "fail": mode = .fail
                case "unreachable": mode = .unreachable
                case "malformed": mode = .malformed
                case "expired": mode = .expired
                case "delay":
                    guard let delay = invocation.duration(1) else {
                        throw ScriptError(.missingArgument, "provider delay needs a DURATION, as in provider delay 2s")
                    }
                    mode = .delay(delay)
                default: mode = .ok
                }
                if mode != .delay(.zero), invocation.argument(0) != "delay", invocation.argument(1) != nil {
                    throw ScriptError(.conflictingOptions, "only provider delay takes a DURATION")
                }
                context.world.current.provider.mode = mode
                context.output.print("provider of \(context.world.current.name): \(mode)")
                return .done
            }),
        tokenVerb(
            "token expire", summary: "the server expires the current user's access tokens now",
            act: { try $0.expireAccessTokens(userId: $1) }, said: { "access tokens of \($0) expired on the server" }),
        tokenVerb(
            "token revoke", summary: "the server revokes the current user's tokens",
            act: { try $0.revokeTokens(userId: $1) }, said: { "tokens of \($0) revoked on the server" }),
    ]
}

extension CommandTable {
    /// `token expire`, `token revoke`: the server does something to the
    /// current user's tokens (`act`, given the server and the user).
    static func tokenVerb(
        _ name: String, summary: String, act: @escaping @Sendable (any ServerSide, String) throws -> Void,
        said: @escaping @Sendable (String) -> String
    ) -> CommandSpec {
        CommandSpec(
            name: name, group: .credentials, summary: summary, example: name,
            run: { context, _ in
                guard let user = context.world.current.userId else {
                    throw ScriptError(.needsUser, "\(name) needs a signed-in user on \(context.world.current.name)")
                }
                try act(context.world.stage.server, user)
                context.output.print(said(user))
                context.world.stage.runUntilIdle()
                return .done
            })
    }
}
