import ChatCore
import ChatSDK

/// Invariants 3 (second half) and 4: what each client shows and holds
/// belongs to its own user, and its states changed only as allowed.
extension Interpreter {
    /// The server's conversations by user, and which user each belongs to,
    /// in one app: ids are per app (issue 26).
    struct Ownership {
        var byUser: [String: Set<String>] = [:]
        var owner: [String: Set<String>] = [:]

        func owns(_ user: String?, _ conversationId: String) -> Bool {
            guard let user else { return false }
            return byUser[user]?.contains(conversationId) == true
        }

        func isOnServer(_ conversationId: String) -> Bool { owner[conversationId] != nil }
    }

    /// The id the server knows a client's conversation by (the app's own
    /// unless the server minted another), or nil while the conversation
    /// exists only on that client: its id may then be another user's on
    /// the server, which says nothing of whose it is here.
    func serverId(ofConversation id: String, on client: ClientObject) -> String? {
        let sdk = client.client
        if case .success(let conversation?)? = world.run({ try await sdk.conversation(withId: id) }), conversation.isLocal { return nil }
        return sdk.serverId(ofConversation: id)
    }

    /// Each app's ``Ownership``, read in the app of a client that uses it.
    struct Ownerships {
        var byApp: [String: Ownership] = [:]

        subscript(client: ClientObject) -> Ownership { byApp[client.apiKey] ?? Ownership() }
    }

    func ownership() -> Ownerships {
        var ownerships = Ownerships()
        for client in clients where ownerships.byApp[client.apiKey] == nil {
            let server = handles.server(of: client)
            var ownership = Ownership()
            for user in (try? server.users()) ?? [] {
                let ids = Set(((try? server.conversations(userId: user.id)) ?? []).map(\.id))
                ownership.byUser[user.id] = ids
                for id in ids { ownership.owner[id, default: []].insert(user.id) }
            }
            ownerships.byApp[client.apiKey] = ownership
        }
        return ownerships
    }

    /// No live watcher shows data of another user or of another client: a
    /// conversation on the server must be its user's; a message not on the
    /// server must be one its own client sent.
    func ownDataViolations(_ ownerships: Ownerships, onServer: (MessageObject) -> Bool) -> [Violation] {
        var found: [Violation] = []
        for watcher in watchers where !watcher.state.isEnded {
            let client = watcher.client
            let ownership = ownerships[client]
            let user = client.userId
            var strangers: [String] = []
            for element in watcher.elementObjects(in: handles) {
                switch element {
                case let conversation as ConversationObject:
                    // Ownership is by the server's ids; objects hold the client's.
                    // A conversation still local to this client is its own.
                    guard let id = serverId(ofConversation: conversation.id, on: client) else { continue }
                    if ownership.isOnServer(id) ? !ownership.owns(user, id) : conversation.client !== client {
                        strangers.append(conversation.handle)
                    }
                case let message as MessageObject:
                    if let id = serverId(ofConversation: message.conversationId, on: message.client), ownership.isOnServer(id),
                        !ownership.owns(user, id)
                    {
                        strangers.append(message.handle)
                    } else if !onServer(message), message.client !== client || !isAuthored(message, by: user) {
                        strangers.append(message.handle)
                    }
                default: break
                }
            }
            if !strangers.isEmpty {
                found.append(
                    Violation(
                        invariant: .ownData,
                        detail:
                            "\(watcher.handle) on \(client.name) (user \(user ?? "none")) shows \(strangers.joined(separator: ", ")), not theirs"
                    ))
            }
        }
        return found
    }

    /// A client whose user signed out or changed holds nothing of that
    /// user: its watchers of them ended, and neither a conversation nor a
    /// message (cached or in the outbox) of theirs is readable through it.
    func signedOutViolations(_ ownerships: Ownerships) -> [Violation] {
        var found: [Violation] = []
        let watchers = self.watchers
        let conversations = self.conversations
        let messages = self.messages
        for client in clients {
            let current = client.userId
            for watcher in watchers where watcher.client === client && !watcher.state.isEnded {
                if let opened = watcher.userId, opened != current, !watcher.elements.isEmpty {
                    found.append(
                        Violation(
                            invariant: .signedOutKeepsNothing,
                            detail:
                                "\(watcher.handle) opened for \(opened) still shows \(watcher.elements.count) items on \(client.name) (user \(current ?? "none"))"
                        ))
                }
            }
            let past = Set(client.pastUsers).subtracting([current].compactMap { $0 })
            guard !past.isEmpty else { continue }
            let ownership = ownerships[client]
            let sdk = client.client
            var kept: [String] = []
            for conversation in conversations where conversation.client === client {
                // Theirs: on the server only for past users, or local to this
                // client and not the current user's.
                guard let serverId = serverId(ofConversation: conversation.id, on: client) else { continue }
                let owners = ownership.owner[serverId] ?? []
                guard !owners.isEmpty, owners.isSubset(of: past) else { continue }
                let id = conversation.id
                if case .success(_?)? = world.run({ try await sdk.conversation(withId: id) }) { kept.append(conversation.handle) }
            }
            for message in messages where message.client === client {
                guard case .user(let author)? = message.latest?.author, past.contains(author), author != current else { continue }
                let owners = serverId(ofConversation: message.conversationId, on: message.client).flatMap { ownership.owner[$0] } ?? []
                guard owners.isEmpty || owners.isSubset(of: past) else { continue }
                let id = message.id
                if case .success(_?)? = world.run({ try await sdk.message(withId: id) }) { kept.append(message.handle) }
            }
            if !kept.isEmpty {
                found.append(
                    Violation(
                        invariant: .signedOutKeepsNothing,
                        detail:
                            "\(client.name) (user \(current ?? "none")) still holds \(kept.joined(separator: ", ")) of \(past.sorted().joined(separator: ", "))"
                    ))
            }
        }
        return found
    }

    /// Session or connection changes the tables do not allow, per client.
    func transitionViolations() -> [Violation] {
        clients.flatMap { client in client.audit.problems.map { Violation(invariant: .transitions, detail: $0) } }
    }

    private func isAuthored(_ message: MessageObject, by user: String?) -> Bool {
        guard case .user(let author)? = message.latest?.author else { return false }
        return author == user
    }

    /// The session's objects of a kind, in handle order (deterministic),
    /// each once (a binding names an object a second time).
    var watchers: [WatcherObject] { objects(of: WatcherObject.self) }
    var conversations: [ConversationObject] { objects(of: ConversationObject.self) }
    var messages: [MessageObject] { objects(of: MessageObject.self) }

    private func objects<T: Inspectable>(of: T.Type) -> [T] {
        objects.filter { $0.key == $0.value.handle }.sorted { $0.key.localizedStandardCompare($1.key) == .orderedAscending }
            .compactMap { $0.value as? T }
    }
}
