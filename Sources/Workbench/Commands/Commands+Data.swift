import ChatBackend
import ChatCore
import ChatSDK
import Foundation

extension CommandTable {
    static let dataCommands: [CommandSpec] = [
        CommandSpec(
            name: "watch", group: .data,
            arguments: [
                ArgumentSpec(name: "WHAT", kind: .choice(["conversations", "conversation", "items"])),
                ArgumentSpec(name: "C", kind: .handle(.conversation), optional: true),
            ],
            summary:
                "start a watcher: cached data first, then the server's; it says fresh only while its data is the server's as of its last fetch and the realtime connection has stayed up since",
            example: "w1 = watch items c1",
            makes: .watcher,
            run: { context, invocation in
                let target: WatcherObject.Target
                switch invocation.argument(0)! {
                case "conversations":
                    if invocation.argument(1) != nil { throw ScriptError(.conflictingOptions, "watch conversations takes no conversation") }
                    target = .conversations
                case let what:
                    guard let word = invocation.argument(1) else {
                        throw ScriptError(.missingArgument, "watch \(what) needs a conversation, as in watch \(what) c1")
                    }
                    let conversation = try context.handles.conversation(word)
                    target = what == "items" ? .items(conversation) : .conversation(conversation)
                }
                let watcher = context.world.startWatcher(target, binding: invocation.binding)
                context.output.printMade(invocation.binding ?? watcher.handle, "watch \(watcher.what)")
                context.world.stage.runUntilIdle()
                // A watcher that ends at once with an error is the command's error.
                if watcher.state.isEnded, let error = watcher.error { context.world.error = error }
                return .done
            }),
        CommandSpec(
            name: "more", group: .data,
            arguments: [ArgumentSpec(name: "W", kind: .handle(.watcher))],
            summary: "load one more page into a paginated watcher",
            example: "more w1",
            run: { context, invocation in
                let watcher = try context.handles.watcher(invocation.argument(0)!)
                if watcher.stopped {
                    context.world.report(
                        ChatError(
                            ChatError.Code(rawValue: "watcherStopped"),
                            "\(watcher.handle) is stopped: start another with watch \(watcher.what)"))
                    return .done
                }
                guard let loadMore = watcher.loadMore else {
                    context.world.report(ChatError(ChatError.Code(rawValue: "nothingMore"), "\(watcher.handle) has nothing more to load"))
                    return .done
                }
                context.world.perform { try await loadMore() }
                return .done
            }),
        CommandSpec(
            name: "stop", group: .data,
            arguments: [ArgumentSpec(name: "W", kind: .handle(.watcher))],
            summary: "stop a watcher",
            example: "stop w1",
            run: { context, invocation in
                let watcher = try context.handles.watcher(invocation.argument(0)!)
                guard !watcher.stopped else {
                    context.output.print("\(watcher.handle) is already stopped")
                    return .done
                }
                watcher.observation?.cancel()
                context.world.stage.runUntilIdle()
                watcher.state = .ended
                watcher.stopped = true
                context.output.print("\(watcher.handle) stopped")
                return .done
            }),
        CommandSpec(
            name: "start conversation", group: .data,
            options: [
                OptionSpec(name: "--title", value: .text, valueName: "T", summary: "the conversation's title"),
                OptionSpec(name: "--id", value: .text, valueName: "ID", summary: "the app's own id for it (default: the SDK mints one)"),
            ],
            summary: "startConversation(): a conversation on this device until its first message",
            example: "start conversation --title \"Knee pain\"",
            makes: .conversation,
            run: { context, invocation in
                let client = context.world.current
                let sdk = client.client
                let title = invocation.option("--title")
                let id = invocation.option("--id")
                guard let conversation = context.world.perform({ try await sdk.startConversation(id: id, title: title) }) else {
                    return .done
                }
                let object = context.handles.conversationObject(for: conversation.id, client: client, sameClient: true, minted: id == nil)
                object.latest = conversation
                context.handles.bind(invocation.binding, to: object)
                context.output.printMade(
                    invocation.binding ?? object.handle, "conversation \(conversation.id) (\(conversation.isLocal ? "local" : "on server"))"
                )
                return .done
            }),
        CommandSpec(
            name: "send", group: .data,
            arguments: [
                ArgumentSpec(name: "C", kind: .handle(.conversation)),
                ArgumentSpec(name: "KIND", kind: .choice(["text", "image", "video", "document", "audio"])),
                ArgumentSpec(name: "CONTENT", kind: .text, optional: true),
            ],
            options: [
                OptionSpec(name: "--reply-to", value: .handle(.message), valueName: "M", summary: "the message it answers"),
                OptionSpec(name: "--size", value: .count, valueName: "BYTES", summary: "an attachment's size, without a file"),
                OptionSpec(name: "--type", value: .text, valueName: "MIME", summary: "an attachment's MIME type"),
                OptionSpec(
                    name: "--client", value: .handle(.client), valueName: "NAME",
                    summary: "the client that sends it (needed when C is another client's conversation than the current one's)"),
            ],
            summary:
                "sendMessage: appears at once, then toBeSent → sending → sent or failed; an attachment's FILE is read and uploaded first",
            example: "send c1 image examples/files/dot.png",
            makes: .message,
            run: { context, invocation in
                let conversation = try context.handles.conversation(invocation.argument(0)!)
                let (content, data) = try attachmentOrText(invocation)
                let replyTo = try invocation.option("--reply-to").map { try context.handles.message($0).id }
                let client = try sender(of: conversation, invocation, in: context)
                let sdk = client.client
                // Another client of the user knows the conversation by the
                // server's id.
                let id =
                    client === conversation.client ? conversation.id : conversation.client.client.serverId(ofConversation: conversation.id)
                let sent = context.world.stage.run {
                    guard let data, case .attachment(let kind, let mimeType, _, let fileName) = content else {
                        return try await sdk.sendMessage(content, replyingTo: replyTo, in: id)
                    }
                    return try await sdk.sendAttachment(
                        data, kind: kind, mimeType: mimeType, fileName: fileName, replyingTo: replyTo, in: id)
                }
                switch sent {
                case .success(let message)?:
                    let object = context.handles.messageObject(for: message.id, conversationId: id, client: client)
                    if let data { object.digest = Backend.sha256(data) }
                    context.handles.bind(invocation.binding, to: object)
                    // With several clients, which one sent it is said.
                    let from = context.handles.clientCount > 1 ? " from \(client.name)" : ""
                    context.output.printMade(
                        invocation.binding ?? object.handle, "\(object.kind) message in \(conversation.handle)\(from)", first: true)
                case .failure(let error)?: context.world.report(error)
                case nil: break
                }
                return .done
            }),
        CommandSpec(
            name: "fetch", group: .data,
            arguments: [ArgumentSpec(name: "M", kind: .handle(.message))],
            summary:
                "data(for:) on the current client: a message's attachment bytes (from the cache until it is sent, then from the server), their size, type and digest, and (cached) when no request was made",
            example: "fetch m1",
            run: { context, invocation in
                let message = try context.handles.message(invocation.argument(0)!)
                let client = context.world.current
                let sdk = client.client
                let id = message.id
                let found: Message?? = context.world.perform { try await sdk.message(withId: id) }
                guard let found else { return .done }
                guard let found else { throw ScriptError(.badValue, "\(message.handle) is not on \(client.name)'s device") }
                guard let fetched = context.world.perform({ try await sdk.data(for: found) }) else { return .done }
                let digest = Backend.sha256(fetched.data)
                message.digest = digest
                context.output.print("\(message.handle): \(Format.attachmentData(fetched, digest: digest))")
                return .done
            }),
        CommandSpec(
            name: "fetch profile", group: .data,
            arguments: [ArgumentSpec(name: "URL", kind: .text, optional: true)],
            options: [
                OptionSpec(
                    name: "--of", value: .handle(.client), valueName: "CLIENT",
                    summary: "the profile image of the user signed in on CLIENT (as that app would pass its URL on)")
            ],
            summary:
                "profileImageData(at:) on the current client: a profile image's bytes (the current user's, unless URL or --of), their size, type and digest",
            example: "fetch profile --of phone",
            run: { context, invocation in
                let sdk = context.world.current.client
                let url: String
                if let given = invocation.argument(0) {
                    if invocation.option("--of") != nil { throw ScriptError(.conflictingOptions, "give a URL or --of CLIENT, not both") }
                    url = given
                } else {
                    let owner =
                        try invocation.option("--of").map { word throws(ScriptError) in try context.handles.client(word) }
                        ?? context.world.current
                    let ownerSDK = owner.client
                    guard let user = context.world.perform({ await ownerSDK.getCurrentUser() }) else { return .done }
                    guard let picture = user?.profileURL else {
                        throw ScriptError(.badValue, "\(owner.name) has no user with a profile picture; profile --image FILE uploads one")
                    }
                    url = picture
                }
                guard let fetched = context.world.perform({ try await sdk.profileImageData(at: url) }) else { return .done }
                context.output.print("\(url): \(Format.attachmentData(fetched, digest: Backend.sha256(fetched.data)))")
                return .done
            }),
        CommandSpec(
            name: "retry", group: .data,
            arguments: [ArgumentSpec(name: "M", kind: .handle(.message))],
            summary: "retrySending: send a failed message again, same client id",
            example: "retry m1",
            run: { context, invocation in
                let message = try context.handles.message(invocation.argument(0)!)
                let sdk = message.client.client
                let id = message.id
                context.world.perform { try await sdk.retrySending(itemId: id) }
                return .done
            }),
    ]

    /// The content of `send C KIND [CONTENT] [--size N] [--type MIME]`, and
    /// for an attachment without `--size`, the bytes of the file CONTENT names.
    static func attachmentOrText(_ invocation: Invocation) throws(ScriptError) -> (content: MessageContent, data: Data?) {
        let kind = invocation.argument(1)!
        if kind == "text" {
            guard let text = invocation.argument(2) else {
                throw ScriptError(.missingArgument, "send C text needs the text, as in send c1 text \"hello\"")
            }
            if invocation.option("--size") != nil || invocation.option("--type") != nil {
                throw ScriptError(.conflictingOptions, "--size and --type are for attachments, not text")
            }
            return (.text(text), nil)
        }
        let attachment = MessageContent.AttachmentKind(rawValue: kind)!
        if let size = invocation.count("--size").map(Int64.init) {
            let mimeType = invocation.option("--type") ?? AttachmentFile.defaultMimeType(of: attachment)
            return (.attachment(kind: attachment, mimeType: mimeType, size: size, fileName: invocation.argument(2)), nil)
        }
        guard let path = invocation.argument(2) else {
            throw ScriptError(.missingArgument, "send C \(kind) needs a FILE, or --size BYTES for a size without a file")
        }
        let file = try AttachmentFile(path: path, kind: attachment, mimeType: invocation.option("--type"))
        return (.attachment(kind: attachment, mimeType: file.mimeType, size: Int64(file.data.count), fileName: file.name), file.data)
    }

    static let otherSideCommands: [CommandSpec] = [
        CommandSpec(
            name: "agent send", group: .otherSide,
            arguments: [
                ArgumentSpec(name: "C", kind: .handle(.conversation)),
                ArgumentSpec(name: "KIND", kind: .choice(["image", "video", "document", "audio"])),
                ArgumentSpec(name: "FILE", kind: .file),
            ],
            options: [OptionSpec(name: "--type", value: .text, valueName: "MIME", summary: "the file's MIME type")],
            summary: "the provider sends a file in a conversation: its bytes, checked against the app's settings",
            example: "agent send c1 image examples/files/dot.png",
            makes: .message,
            run: { context, invocation in
                let conversation = try context.handles.conversation(invocation.argument(0)!)
                let kind = invocation.choice(1, as: MessageContent.AttachmentKind.self)!
                let file = try AttachmentFile(path: invocation.argument(2)!, kind: kind, mimeType: invocation.option("--type"))
                let message = try context.world.stage.server.agentSendAttachment(
                    conversationId: try context.handles.agentConversationId(conversation), kind: WireContent.AttachmentKind(kind),
                    mimeType: file.mimeType,
                    fileName: file.name, data: file.data)
                let object = context.handles.agentMessageObject(for: message, in: conversation)
                object.digest = Backend.sha256(file.data)
                context.handles.bind(invocation.binding, to: object)
                context.output.printMade(invocation.binding ?? object.handle, "agent \(kind.rawValue) message in \(conversation.handle)")
                return .done
            }),
        CommandSpec(
            name: "agent say", group: .otherSide,
            arguments: [ArgumentSpec(name: "C", kind: .handle(.conversation)), ArgumentSpec(name: "TEXT", kind: .text)],
            options: [OptionSpec(name: "--times", value: .count, valueName: "N", summary: "say it N times (numbered)")],
            summary: "the provider says something in a conversation",
            example: "agent say c1 \"How can I help?\"",
            makes: .message,
            run: { context, invocation in
                let conversation = try context.handles.conversation(invocation.argument(0)!)
                let text = invocation.argument(1)!
                let times = invocation.count("--times") ?? 1
                for i in 0..<times {
                    let line = times == 1 ? text : "\(text) \(i + 1)"
                    let message = try context.world.stage.server.agentSay(
                        conversationId: try context.handles.agentConversationId(conversation), text: line)
                    if times == 1 {
                        let object = context.handles.agentMessageObject(for: message, in: conversation)
                        context.handles.bind(invocation.binding, to: object)
                        context.output.printMade(invocation.binding ?? object.handle, "agent message in \(conversation.handle)")
                    }
                }
                if times != 1 { context.output.print("agent said \(times) messages in \(conversation.handle)") }
                context.world.stage.runUntilIdle()
                return .done
            }),
        CommandSpec(
            name: "agent typing", group: .otherSide,
            arguments: [ArgumentSpec(name: "C", kind: .handle(.conversation)), ArgumentSpec(name: "STATE", kind: .choice(["on", "off"]))],
            summary: "the provider starts or stops typing (expires on its own)",
            example: "agent typing c1 on",
            run: { context, invocation in
                let conversation = try context.handles.conversation(invocation.argument(0)!)
                let on = invocation.argument(1) == "on"
                try context.world.stage.server.agentTyping(
                    conversationId: try context.handles.agentConversationId(conversation), isTyping: on)
                context.output.print("agent \(on ? "is typing" : "stopped typing") in \(conversation.handle)")
                context.world.stage.runUntilIdle()
                return .done
            }),
        CommandSpec(
            name: "agent read", group: .otherSide,
            arguments: [ArgumentSpec(name: "C", kind: .handle(.conversation))],
            summary: "the provider reads the conversation",
            example: "agent read c1",
            run: { context, invocation in
                let conversation = try context.handles.conversation(invocation.argument(0)!)
                try context.world.stage.server.agentRead(conversationId: try context.handles.agentConversationId(conversation))
                context.output.print("agent read \(conversation.handle)")
                context.world.stage.runUntilIdle()
                return .done
            }),
    ]
}

/// The client that sends into `conversation`: `--client NAME`, or the
/// conversation's own client when it is the current one. Another client's
/// conversation without `--client` is ambiguous (issue 29: it was sent from
/// the conversation's client, whichever client was current, and nothing said
/// so).
private func sender(of conversation: ConversationObject, _ invocation: Invocation, in context: CommandContext) throws(ScriptError)
    -> ClientObject
{
    if let name = invocation.option("--client") { return try context.handles.client(name) }
    let owner = conversation.client
    let current = context.world.current
    guard owner === current else {
        throw ScriptError(
            .ambiguous,
            "\(conversation.handle) is \(owner.name)'s conversation and \(current.name) is the current client: say which sends it, with --client \(owner.name) or --client \(current.name)"
        )
    }
    return owner
}
