internal import ChatCore

extension ClientCore {
    /// Opens the realtime connection if it is not open (D8).
    func ensureRealtime() {
        guard realtimeTask == nil, userId != nil, !background else { return }
        // A new run: its first connection is not a reconnection. Started
        // here, not in the run's task, so that a run closed before its task
        // began cannot start the machine over under the next one.
        link.start()
        realtimeTask = runtime.spawn { await self.runRealtime() }
    }

    func closeRealtime() {
        realtimeTask?.cancel()
        realtimeTask = nil
        link.stopped()
        backoff?.cancel()
        backoff = nil
        realtime?.close()
        realtime = nil
        setConnection(.disconnected)
    }

    /// Connects, handles events until the connection ends, and reconnects
    /// with back-off, catching up from the last event seen.
    ///
    /// The link is its task: closing it (`closeRealtime`, which every new
    /// session and every clear does) cancels the task, and the loop stops
    /// at its next step, dropping what a late answer brings.
    private func runRealtime() async {
        while !Task.isCancelled {
            var closedByServer: String?
            var token: String?
            setConnection(.connecting)
            do {
                let current = try await accessToken()
                token = current
                let after = store.meta("userSeq").flatMap(Int64.init)
                let connection = try await configuration.transport.openRealtime(
                    RealtimeRequest(
                        apiKey: configuration.apiKey, accessToken: current,
                        deviceId: deviceId, afterUserSeq: after, headers: machine.credential?.headers ?? [:]))
                guard !Task.isCancelled else {
                    connection.close()
                    return
                }
                realtime = connection
                let opened = link.opened(hadCursor: after != nil)
                setConnection(opened.state)
                // The server is there: what the outbox holds back goes now (D7).
                resendNow()
                // Back online: what could not be refreshed is refreshed now.
                await refreshStaleWatchers(all: opened.refetchAll)
                for await signal in connection.signals {
                    guard !Task.isCancelled else { break }
                    switch signal {
                    case .event(let event):
                        learnConversationAlias(from: event)
                        handle(aliases.withLock { $0.incoming(event) })
                    // Whoever ended it, the reason decides (a cut of the
                    // network's fault layer speaks as the server would).
                    case .closed(let reason, _): closedByServer = reason
                    }
                    if closedByServer != nil { break }
                }
                realtime = nil
            } catch {
                switch RealtimeLinkMachine.afterError(error) {
                case .stop: return
                case .renewToken:
                    if let token { machine.tokenExpired(token) }
                    continue
                case .endSession(let reason):
                    perform(machine.end(reason: reason))
                    return
                case .wait: break
                }
            }
            guard !Task.isCancelled, !background else { return }
            // A transport that can tell says whether the network went with it.
            if configuration.transport.isReachable == false { networkChanged(reachable: false) }
            setConnection(link.ended(closedByServer: closedByServer))
            // What watchers show no longer follows the server (D1).
            markWatchersStale()
            let jitter = self.jitter
            // Back off (1 s, 2 s, 4 s… up to 30 s, with jitter); offline,
            // wait for the network itself. A change of network ends either
            // wait early (`networkChanged`).
            var wait: RealtimeLinkMachine.Wait? = link.nextWait(fraction: { jitter.fraction() })
            while let next = wait, !Task.isCancelled {
                await sleep(next)
                // A link closed meanwhile leaves the machine to the next one.
                guard !Task.isCancelled else { return }
                wait = link.waitEnded()
            }
        }
    }

    /// Waits as the link decided. Back-off is recovery (settle runs it);
    /// waiting for the network is not: only the network can end it.
    private func sleep(_ wait: RealtimeLinkMachine.Wait) async {
        let (delay, kind): (Duration, WaitKind) =
            switch wait {
            case .backoff(let delay): (delay, .recovery("reconnect after back-off"))
            case .network: (RealtimeLinkMachine.networkWait, .lifecycle("wait for the network"))
            }
        let runtime = self.runtime
        let task = Task(executorPreference: runtime.executor) { try await runtime.sleep(for: delay, kind: kind) }
        backoff = task
        _ = try? await task.value
        backoff = nil
    }

    /// The realtime connection is down: every watcher that said fresh
    /// emits the same data, no longer fresh (D1).
    func markWatchersStale() {
        for id in watchers.keys.sorted() {
            guard let entry = watchers[id] else { continue }
            if entry.machine.linkLost(hasEmitted: entry.hasEmitted).contains(.emit) { emit(entry) }
        }
    }

    private func refreshStaleWatchers(all: Bool) async {
        for id in watchers.keys.sorted() {
            guard let entry = watchers[id], entry.machine.refreshesOnReconnection(all: all, hasEmitted: entry.hasEmitted) else { continue }
            await refresh(id)
        }
    }

    /// Applies one pushed event; events already seen are ignored.
    /// The event of a message this device is sending, in a conversation it
    /// created, under another id than the app's: the server minted that id
    /// (ConversationAliases). The event can come before the send's answer.
    private func learnConversationAlias(from event: WireEvent) {
        // Most events are of conversations this device knows: one lookup
        // in memory, and the message itself is not read.
        guard case .messageCreated(let message) = event.kind, store.conversation(id: message.conversationId) == nil,
            aliases.withLock({ $0.localId(message.conversationId) == message.conversationId }),
            let row = store.message(id: message.id), row.conversationId != message.conversationId,
            store.conversation(id: row.conversationId)?.isLocal == true
        else { return }
        let known = aliases.withLock { aliases in
            guard aliases.localId(message.conversationId) == message.conversationId,
                aliases.serverId(row.conversationId) == row.conversationId
            else { return true }
            aliases.add(localId: row.conversationId, serverId: message.conversationId)
            return false
        }
        if !known { store.addConversationAlias(localId: row.conversationId, serverId: message.conversationId) }
    }

    func handle(_ event: WireEvent) {
        if let last = store.meta("userSeq").flatMap(Int64.init), event.userSeq <= last { return }
        // The cursor is written with the event's data (or the next data):
        // an event seen again after a crash is applied again, to no effect.
        store.setMeta("userSeq", String(event.userSeq), lazily: true)
        // While a send's answer is awaited, its commit writes this too: the
        // events of one's own message come before its answer, with its rows.
        store.batch(echo: true) { apply(event) }
    }

    /// Whether a pushed message leaves a hole before it in what this device
    /// holds of its conversation (D8): its seq is past the conversation's
    /// last one plus one, and the cache's newest message is older still.
    /// That happens when events went by while no link was open to carry
    /// them (a first connection has no cursor to catch up from), and a
    /// watcher showing the conversation would say fresh with a message
    /// missing between two it shows (issue 25).
    private func followsAGap(_ message: WireMessage) -> Bool {
        // The conversation's row is in memory: the common case costs no query.
        guard let conversation = store.conversation(id: message.conversationId) else { return false }
        // Started on this device, and the server already has messages in
        // it before this one: another device of the user made it.
        if conversation.isLocal { return message.seq > 1 }
        guard message.seq > conversation.lastSeq + 1 else { return false }
        guard let newest = store.newestSeq(conversationId: message.conversationId) else { return false }
        return message.seq > newest + 1
    }

    /// The watchers of a conversation's items that a gap left with a hole
    /// say so (not fresh, refreshing) and fetch what they show again.
    func refetchAfterGap(in conversationId: String) {
        for id in watchers.keys.sorted() {
            guard let entry = watchers[id], entry.target == .items(conversationId),
                entry.machine.gapFound(hasEmitted: entry.hasEmitted)
            else { continue }
            _ = runtime.spawn { await self.refresh(id, fromServer: true) }
        }
    }

    private func apply(_ event: WireEvent) {
        switch event.kind {
        case .messageCreated(let message):
            let gap = followsAGap(message)
            storeServerMessage(message)
            if gap { refetchAfterGap(in: message.conversationId) }
            notifyWatchers(of: .items(message.conversationId))
        case .conversationUpdated(let conversation):
            storeServerConversation(conversation)
            notifyWatchers(of: .conversation(conversation.id))
        case .typing(let conversationId, _, let until):
            guard var row = store.conversation(id: conversationId) else { return }
            row.providerTypingUntil = until?.milliseconds
            store.upsert(row)
            notifyWatchers(of: .conversation(conversationId))
            typingTimers[conversationId]?.cancel()
            typingTimers[conversationId] = nil
            if let until {
                let runtime = self.runtime
                typingTimers[conversationId] = runtime.spawn {
                    do { try await runtime.sleep(until: until, kind: .lifecycle("provider typing in \(conversationId) lapses")) } catch {
                        return
                    }
                    await self.notifyWatchers(of: .conversation(conversationId))
                }
            }
        }
    }
}
