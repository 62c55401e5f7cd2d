import ChatBackend
import ChatCore
import ChatSDK
import ChatSimulation

extension CommandTable {
    static let loginCommands: [CommandSpec] = [
        CommandSpec(
            name: "login jwt", group: .identity,
            arguments: [ArgumentSpec(name: "ID", kind: .text)],
            options: [
                OptionSpec(
                    name: "--exp", value: .duration, valueName: "DURATION",
                    summary: "how long the JWT is valid (default 1h; 0s is already expired)"),
                OptionSpec(name: "--name", value: .text, valueName: "N", summary: "the name claim"),
                OptionSpec(name: "--email", value: .text, valueName: "E", summary: "the email claim"),
                OptionSpec(
                    name: "--secret", value: .text, valueName: "S", summary: "sign with this secret instead of the app's", secret: true),
                OptionSpec(name: "--no-exp", value: nil, summary: "leave out the exp claim (the server refuses it)"),
                OptionSpec(name: "--no-external-id", value: nil, summary: "leave out the external_id claim (the server refuses it)"),
                OptionSpec(
                    name: "--alg", value: .choice(["HS256", "HS384", "none"]), valueName: "HS256|HS384|none",
                    summary: "sign with this algorithm (the server takes HS256 only)"),
                OptionSpec(
                    name: "--nbf", value: .duration, valueName: "DURATION",
                    summary: "a not-before claim this long from now (more than 60s ahead is refused)"),
            ],
            summary: "loginUser(jwt:): the app's backend signs a JWT (HS256) and the SDK logs in with it",
            example: "login jwt alice --exp 10m --name \"Alice A.\"",
            run: { context, invocation in
                let object = context.world.current
                let id = invocation.argument(0)!
                let exp = invocation.duration("--exp") ?? .seconds(3600)
                if invocation.flag("--no-exp"), invocation.option("--exp") != nil {
                    throw ScriptError(.conflictingOptions, "login jwt takes --exp or --no-exp, not both")
                }
                let flaws = AppJWTFactory.Flaws(
                    noExp: invocation.flag("--no-exp"), noExternalId: invocation.flag("--no-external-id"),
                    algorithm: invocation.option("--alg") ?? "HS256",
                    notBefore: invocation.duration("--nbf"))
                let jwt = AppJWTFactory.sign(
                    userId: id, expiresIn: exp, name: invocation.option("--name"), email: invocation.option("--email"),
                    secret: invocation.option("--secret") ?? context.world.stage.app.secret, world: context.world.stage, flaws: flaws)
                object.delegate.userId = id
                let client = object.client
                guard let user = context.world.perform({ try await client.loginUser(jwt: jwt) }) else { return .done }
                object.userId = user.id
                object.auth = .jwt
                context.output.print("\(user.id) logged in on \(object.name) with a JWT (\(user.name.map { "name \($0)" } ?? "no name"))")
                return .done
            }),
        CommandSpec(
            name: "login anonymous", group: .identity,
            summary: "loginAnonymous(): the server creates an anonymous user",
            example: "login anonymous",
            run: { context, _ in
                let object = context.world.current
                let client = object.client
                guard let user = context.world.perform({ try await client.loginAnonymous() }) else { return .done }
                object.userId = user.id
                object.auth = .anonymous
                context.output.print("anonymous user \(user.id) on \(object.name)")
                return .done
            }),
        leaving(
            "logout", summary: "logout(): close the server session, stop this device's pushes, clear local data", example: "logout",
            call: { try await $0.logout() },
            said: { user, object, context in
                "\(user ?? "the user") logged out of \(object.name)\(context.world.stage.network.isOnline ? "" : "; the server part waits for the network")"
            }),
        CommandSpec(
            name: "connect", group: .identity,
            arguments: [ArgumentSpec(name: "ID", kind: .text)],
            options: [
                OptionSpec(
                    name: "--access-token", value: nil, summary: "with an access token the app's backend issues (never expires, revocable)"),
                OptionSpec(
                    name: "--session-token", value: nil, summary: "with a session token that expires (the SessionDelegate renews it)"),
                OptionSpec(name: "--ttl", value: .duration, valueName: "DURATION", summary: "the session token's lifetime"),
            ],
            summary: "connect(userId:) alone, or with an access or session token",
            example: "connect carol --session-token --ttl 10m",
            run: { context, invocation in
                let object = context.world.current
                let id = invocation.argument(0)!
                let server = context.world.stage.server
                if invocation.flag("--access-token") && invocation.flag("--session-token") {
                    throw ScriptError(.conflictingOptions, "connect takes --access-token or --session-token, not both")
                }
                if invocation.option("--ttl") != nil && !invocation.flag("--session-token") {
                    throw ScriptError(.conflictingOptions, "--ttl goes with --session-token")
                }
                object.delegate.userId = id
                let client = object.client
                let user: ChatUser?
                if invocation.flag("--access-token") {
                    let token: HTTPWire.IssuedCredentialBody
                    do { token = try server.issueAccessToken(userId: id) } catch {
                        context.world.report(error)
                        return .done
                    }
                    user = context.world.perform { try await client.connect(userId: id, accessToken: token.token) }
                } else if invocation.flag("--session-token") {
                    let ttl = invocation.duration("--ttl")
                    let token: HTTPWire.IssuedCredentialBody
                    do { token = try server.issueSessionToken(userId: id, ttl: ttl) } catch {
                        context.world.report(error)
                        return .done
                    }
                    user = context.world.perform { try await client.connect(userId: id, sessionToken: token.token) }
                } else {
                    user = context.world.perform { try await client.connect(userId: id) }
                }
                guard let user else { return .done }
                context.output.print("\(user.id) connected on \(object.name) (auth \(user.authenticationType.rawValue))")
                return .done
            }),
        leaving(
            "disconnect", summary: "disconnect(): close the connection, keep the disk cache for the next connect", example: "disconnect",
            call: { await $0.disconnect() }, said: { _, object, _ in "\(object.name) disconnected" }),
        CommandSpec(
            name: "authorize", group: .identity,
            arguments: [ArgumentSpec(name: "ID", kind: .text)],
            options: [
                OptionSpec(name: "--name", value: .text, valueName: "N", summary: "the user's name"),
                OptionSpec(name: "--data", value: .text, valueName: "k=v", summary: "an attribute (repeatable)"),
                OptionSpec(name: "--token", value: .text, valueName: "T", summary: "ChatAuth's token (an app-issued token)", secret: true),
                OptionSpec(
                    name: "--scheme", value: .text, valueName: "access|session",
                    summary: "what the token is: an access token (default) or a session token"),
                OptionSpec(name: "--signed", value: nil, summary: "the app's backend signs the user id (identity verification)"),
                OptionSpec(name: "--signature", value: .text, valueName: "S", summary: "ChatAuth's user signature, as given", secret: true),
                OptionSpec(
                    name: "--header", value: .text, valueName: "K=V",
                    summary: "a header field sent with each of the user's requests (repeatable)", secret: true),
            ],
            summary: "authorize(user:auth:): returns at once; errors arrive as events",
            example: "authorize u-7f3a9c --name Dana --data plan=gold",
            run: { context, invocation in
                let object = context.world.current
                let id = invocation.argument(0)!
                let attributes = try keyValues(invocation.values("--data"))
                let user = ChatUser(id: id, name: invocation.option("--name"), attributes: attributes)
                if invocation.flag("--signed") && invocation.option("--signature") != nil {
                    throw ScriptError(.conflictingOptions, "authorize takes --signed or --signature, not both")
                }
                // The workbench plays the app's backend, which signs with the app's secret.
                let signature =
                    invocation.flag("--signed")
                    ? UserSignature.sign(userId: id, secret: context.world.stage.app.secret) : invocation.option("--signature")
                let headers = try keyValues(invocation.values("--header"))
                let given =
                    invocation.option("--token") != nil || invocation.option("--scheme") != nil || signature != nil || !headers.isEmpty
                let auth =
                    given
                    ? ChatAuth(
                        token: invocation.option("--token"), scheme: invocation.option("--scheme"), headers: headers, signature: signature)
                    : nil
                object.delegate.userId = id
                let client = object.client
                let network = context.world.stage.network
                let before = (network.requestCount, network.offlineFailures)
                let warnings = context.world.perform { await client.authorize(user: user, auth: auth) } ?? []
                let requests = network.requestCount - before.0
                let offline = network.offlineFailures - before.1
                context.output.print(
                    "\(id) authorized on \(object.name) (\(Self.requestsTried(requests, failedOffline: offline)), \(Format.count(warnings.count, "warning")))"
                )
                return .done
            }),
        leaving(
            "deauthorize", summary: "deauthorizeUser(): local clear; the server session and pushes stay", example: "deauthorize",
            call: { await $0.deauthorizeUser() },
            said: { user, object, _ in "\(user ?? "nobody") deauthorized on \(object.name); the server session and push subscription stay" }
        ),
        CommandSpec(
            name: "prefill", group: .identity,
            arguments: [ArgumentSpec(name: "TEXT", kind: .text)],
            summary: "prefill(message:): the next opened conversation gets it once in its draft",
            example: "prefill \"I have a question about my bill\"",
            run: { context, invocation in
                let client = context.world.current.client
                let text = invocation.argument(0)!
                context.world.perform { await client.prefill(message: text) }
                context.output.print(text.isEmpty ? "prefill cleared" : "prefill set")
                return .done
            }),
        CommandSpec(
            name: "update-data", group: .identity,
            arguments: [ArgumentSpec(name: "k=v", kind: .text, optional: true, variadic: true)],
            options: [
                OptionSpec(
                    name: "--clear", value: nil, summary: "updateData(nil) first: the user's attributes are cleared (and what was pending)")
            ],
            summary: "updateData: attributes reach the server when a conversation next opens online",
            example: "update-data plan=gold city=Lyon",
            run: { context, invocation in
                let attributes = try keyValues(invocation.arguments.map(\.text))
                let clear = invocation.flag("--clear")
                guard clear || !attributes.isEmpty else {
                    throw ScriptError(.missingArgument, "update-data needs k=v pairs, or --clear, as in update-data plan=gold")
                }
                let client = context.world.current.client
                if clear { guard context.world.perform({ try await client.updateData(nil) }) != nil else { return .done } }
                if !attributes.isEmpty {
                    guard context.world.perform({ try await client.updateData(attributes) }) != nil else { return .done }
                }
                let count = "\(attributes.count) attribute\(attributes.count == 1 ? "" : "s")"
                context.output.print(
                    clear
                        ? "attributes cleared\(attributes.isEmpty ? "" : ", then \(count) set"), when the next conversation opens online"
                        : "\(count) waiting for the next conversation opened online")
                return .done
            }),
        CommandSpec(
            name: "profile", group: .identity,
            options: [
                OptionSpec(name: "--nickname", value: .text, valueName: "N", summary: "the nickname"),
                OptionSpec(name: "--url", value: .text, valueName: "URL", summary: "the profile picture's URL"),
                OptionSpec(name: "--image", value: .file, valueName: "FILE", summary: "upload this image file (JPEG or PNG)"),
                OptionSpec(name: "--image-size", value: .count, valueName: "BYTES", summary: "upload an image of this size"),
                OptionSpec(name: "--type", value: .choice(["png", "jpeg", "gif"]), valueName: "png|jpeg|gif", summary: "the image's type"),
            ],
            summary: "updateCurrentUserInfo: nickname, URL, or an image file or size (JPEG/PNG ≤ 5 MB, checked before upload)",
            example: "profile --nickname Al --image-size 200000 --type png",
            run: { context, invocation in
                let client = context.world.current.client
                let nickname = invocation.option("--nickname")
                let user: ChatUser?
                if let path = invocation.option("--image") {
                    if invocation.option("--image-size") != nil {
                        throw ScriptError(.conflictingOptions, "--image reads a file; --image-size describes one without")
                    }
                    let type = invocation.option("--type").map { "image/\($0)" }
                    let file = try AttachmentFile(path: path, kind: .image, mimeType: type)
                    let image = ProfileImage(data: file.data, mimeType: file.mimeType)
                    user = context.world.perform { try await client.updateCurrentUserInfo(nickname: nickname, image: image) }
                } else if let size = invocation.count("--image-size").map(Int64.init) {
                    guard let type = invocation.option("--type") else {
                        throw ScriptError(.missingArgument, "--image-size needs --type png|jpeg|gif")
                    }
                    let image = ProfileImage(mimeType: "image/\(type)", size: size)
                    user = context.world.perform { try await client.updateCurrentUserInfo(nickname: nickname, image: image) }
                } else {
                    if invocation.option("--type") != nil {
                        throw ScriptError(.conflictingOptions, "--type goes with --image or --image-size")
                    }
                    let url = invocation.option("--url")
                    user = context.world.perform { try await client.updateCurrentUserInfo(nickname: nickname, profileURL: url) }
                }
                guard let user else { return .done }
                // An uploaded picture's URL is the server's.
                if invocation.option("--url") == nil, let url = user.profileURL {
                    context.handles.minted.learn(url, as: "\(user.id).picture")
                }
                context.output.print("profile of \(user.id): nickname \(user.nickname ?? "none"), picture \(user.profileURL ?? "none")")
                return .done
            }),
        CommandSpec(
            name: "delegate", group: .credentials,
            arguments: [ArgumentSpec(name: "MODE", kind: .choice(["renew", "decline", "fail", "none"]))],
            summary:
                "the authentication and session delegate: renew gives a new JWT or session token, decline gives none, fail throws (sessionDidHaveError), none unsets it",
            example: "delegate renew",
            run: { context, invocation in
                let object = context.world.current
                let before = object.delegate.mode
                object.delegate.mode = invocation.choice(0, as: WorkbenchDelegate.Mode.self)!
                // Changing how the app's delegate answers is not setting a
                // new one; setting or removing one is (and must come before connect).
                guard (before == .none) != (object.delegate.mode == .none) else {
                    context.output.print("delegate of \(object.name): \(object.delegate.mode.rawValue)")
                    return .done
                }
                let client = object.client
                let delegate: WorkbenchDelegate? = object.delegate.mode == .none ? nil : object.delegate
                let done: Bool? = context.world.perform {
                    try await client.setAuthenticationDelegate(delegate)
                    try await client.setSessionDelegate(delegate)
                    return true
                }
                guard done != nil else { return .done }
                context.output.print("delegate of \(object.name): \(object.delegate.mode.rawValue)")
                return .done
            }),
    ]

    /// `no request`, `2 requests`; an offline try is not "no request":
    /// `1 request failed offline`, `2 requests, 1 failed offline`.
    static func requestsTried(_ requests: Int, failedOffline offline: Int) -> String {
        switch (requests, offline) {
        case (0, 0): "no request"
        case (_, 0): Format.count(requests, "request")
        case (0, _): "\(Format.count(offline, "request")) failed offline"
        default: "\(Format.count(requests, "request")), \(offline) failed offline"
        }
    }

    /// A verb that ends the current user's time on the client (`logout`,
    /// `disconnect`, `deauthorize`, `user clear`): the SDK call runs, and
    /// the verb says what it did once the call has completed (nothing while
    /// it waits).
    static func leaving(
        _ name: String, summary: String, example: String, call: @escaping @Sendable (ChatClient) async throws -> Void,
        said: @escaping @Sendable (_ user: String?, _ object: ClientObject, _ context: CommandContext) -> String
    ) -> CommandSpec {
        CommandSpec(
            name: name, group: .identity, summary: summary, example: example,
            run: { context, _ in
                let object = context.world.current
                let client = object.client
                let user = object.userId
                guard context.world.perform({ try await call(client) }) != nil else { return .done }
                context.output.print(said(user, object, context))
                return .done
            })
    }

    /// `k=v` words as a dictionary.
    static func keyValues(_ words: [String]) throws(ScriptError) -> [String: String] {
        var result: [String: String] = [:]
        for word in words {
            guard let equal = word.firstIndex(of: "="), equal != word.startIndex else {
                throw ScriptError(.badValue, "expected key=value, got \"\(word)\"")
            }
            result[String(word[..<equal])] = String(word[word.index(after: equal)...])
        }
        return result
    }
}
