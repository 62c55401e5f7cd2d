import ChatCore
import ChatSDK

extension WorkbenchSession {
    /// What the messages a failing line names are, by author and content
    /// (` (m2 by alice "Hello?")`), not by state: a smaller script or transcript in which
    /// `m2` is another message (the agent's, numbered sooner) fails with the
    /// same words but means something else.
    func referents(of input: String) -> String {
        let names = input.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init)
        var described: [String] = []
        var seen: Set<String> = []
        for name in names where !seen.contains(name) {
            guard let message = interpreter.objects[name] as? MessageObject, let latest = message.latest else { continue }
            seen.insert(name)
            described.append("\(name) by \(message.author) \(Format.content(latest.content))")
        }
        return described.isEmpty ? "" : " (" + described.joined(separator: ", ") + ")"
    }

    /// The invariants that do not hold now, in the world this session ran.
    package func violations(budget: Duration = .seconds(7 * 86_400)) -> [Violation] {
        interpreter.violations(budget: budget)
    }

    /// Virtual time since the session's world started.
    package var elapsed: Duration { interpreter.world.now - interpreter.start }
}

extension Interpreter {
    func violations(budget: Duration) -> [Violation] {
        var found: [Violation] = []
        let messages = objects.values.compactMap { $0 as? MessageObject }
        let ownMessages = Dictionary(grouping: messages.filter { !$0.history.isEmpty }, by: \.handle).compactMap(\.value.first)
            .sorted { $0.handle.localizedStandardCompare($1.handle) == .orderedAscending }
        // Read in the app of the client that asks: ids are per app (a
        // client of `server app new`'s app sent into its own c-visit).
        struct Key: Hashable {
            var apiKey: String
            var conversationId: String
        }
        var serverMessages: [Key: [WireMessage]] = [:]
        func server(_ conversationId: String, of client: ClientObject) -> [WireMessage] {
            let key = Key(apiKey: client.apiKey, conversationId: conversationId)
            if let known = serverMessages[key] { return known }
            let fetched = (try? handles.server(of: client).messages(conversationId: conversationId)) ?? []
            serverMessages[key] = fetched
            return fetched
        }
        for message in ownMessages {
            // A user signed out or cleared takes their pending messages with
            // them (A4, A9): only messages of a user still signed in count.
            guard case .user(let author)? = message.latest?.author, message.client.userId == author else { continue }
            let copies = server(message.serverConversationId, of: message.client).filter { $0.id == message.id }.count
            // Lost with its client's process (an outbox in memory, or in a
            // cache made garbage), or waiting for the next launch of an app
            // that shut its client down: at most once on the server, if its
            // request was on the wire.
            let gone = message.client.lostWithARestart.contains(message.id) || message.client.isShutDown
            if gone, message.latest?.state != .sent {
                if copies > 1 {
                    found.append(Violation(invariant: .delivered, detail: "\(message.handle) is on the server \(copies) times"))
                }
                continue
            }
            switch message.latest?.state {
            case .sent?:
                if copies != 1 {
                    found.append(Violation(invariant: .delivered, detail: "\(message.handle) is sent but on the server \(copies) times"))
                }
            case .failed?:
                if copies > 1 {
                    found.append(Violation(invariant: .delivered, detail: "\(message.handle) failed and is on the server \(copies) times"))
                }
            case let state:
                found.append(
                    Violation(
                        invariant: .delivered, detail: "\(message.handle) is still \(state?.name ?? "unknown") after the world healed"))
            }
        }
        // Order: the app's messages that never failed reach the server in the
        // order they were sent, per client (issue 29: two devices sending
        // into one conversation at once have no order between them).
        struct Queue: Hashable {
            var client: String
            var conversationId: String
        }
        let queues = Dictionary(
            grouping: ownMessages.filter { !$0.history.contains { $0.state.kind == .failed } },
            by: { Queue(client: $0.client.handle, conversationId: $0.serverConversationId) })
        for queue in queues.keys.sorted(by: { ($0.client, $0.conversationId) < ($1.client, $1.conversationId) }) {
            let conversationId = queue.conversationId
            let sent = queues[queue] ?? []
            let order = sent.first.map { server(conversationId, of: $0.client).map(\.id) } ?? []
            let positions = sent.compactMap { order.firstIndex(of: $0.id) }
            if positions != positions.sorted() {
                found.append(
                    Violation(
                        invariant: .ordered,
                        detail:
                            "in \(handles.handle(forID: conversationId) ?? conversationId) the server holds \(sent.map(\.handle)) out of order"
                    )
                )
            }
        }
        for watcher in objects.others(WatcherObject.self) where !watcher.state.isEnded && watcher.fresh {
            guard case .items(let conversation) = watcher.target else { continue }
            let shown = watcher.elementObjects(in: handles).compactMap { ($0 as? MessageObject)?.id }
            let unsent = Set(messages.filter { $0.latest?.state != .sent }.map(\.id))
            let shownSent = shown.filter { !unsent.contains($0) }
            let newest = server(watcher.client.client.serverId(ofConversation: conversation.id), of: watcher.client).sorted {
                $0.seq > $1.seq
            }.prefix(
                shownSent.count
            ).map(\.id)
            if shownSent != newest {
                found.append(
                    Violation(
                        invariant: .freshIsTrue,
                        detail: "\(watcher.handle) says fresh but shows \(shownSent.count) sent items that are not the server's newest"))
            }
        }
        let owners = ownership()
        let onServer = { (message: MessageObject) in
            server(message.serverConversationId, of: message.client).contains { $0.id == message.id }
        }
        found += ownDataViolations(owners, onServer: onServer)
        found += transitionViolations()
        found += signedOutViolations(owners)
        if world.now - start > budget {
            found.append(Violation(invariant: .bounded, detail: "the run took \(Format.duration(world.now - start)) of virtual time"))
        }
        return found
    }
}
