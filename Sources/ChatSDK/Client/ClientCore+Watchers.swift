internal import ChatCore
import Foundation

extension ClientCore {
    func addWatcher(
        target: WatchTarget, yield: @escaping @Sendable (Int, WatcherSnapshot, Bool, RefreshingState) -> Void,
        finish: @escaping @Sendable ((any Error)?) -> Void
    ) -> Int {
        let id = nextWatcherID
        nextWatcherID += 1
        watchers[id] = WatcherEntry(id: id, target: target, yield: yield, finish: finish)
        return id
    }

    func removeWatcher(_ id: Int) { watchers[id] = nil }

    /// Starts a watcher (D1): cached data first when there is some, then the
    /// server's.
    func startWatcher(_ id: Int) async {
        guard let entry = watchers[id] else { return }
        do {
            try checkRunning()
            _ = try await ensureUser()
        } catch {
            entry.finish(error as? ChatError ?? ChatError.signInFirst())
            watchers[id] = nil
            return
        }
        if let conversationId = entry.target.conversationId, store.conversation(id: conversationId) == nil {
            // Not on this device (opened from a push, or on a second
            // device): the server may know it (D5).
            do {
                guard case .conversation(let conversation) = try await request(.getConversation(id: conversationId)) else {
                    throw ChatError(.unknownConversation, "No conversation \(conversationId) on this device or the server")
                }
                guard watchers[id] != nil else { return }
                storeServerConversation(conversation)
            } catch {
                guard watchers[id] != nil else { return }
                var chatError = error as? ChatError ?? ChatError(.networkFailure, "\(error)")
                if chatError.code == .unknownConversation {
                    chatError = ChatError(.unknownConversation, "No conversation \(conversationId) on this device or the server")
                }
                entry.finish(chatError)
                watchers[id] = nil
                return
            }
        }
        if let conversationId = entry.target.conversationId, let text = prefillText {
            // The next opened conversation receives the prefill, once (A13).
            drafts[conversationId] = text
            prefillText = nil
        }
        if hasCachedData(for: entry.target) {
            emit(entry)
        }
        await refresh(id)
        if entry.target.conversationId != nil { await flushPendingAttributes() }
    }

    private func hasCachedData(for target: WatchTarget) -> Bool {
        switch target {
        case .conversations: store.meta(target.fetchedKey) != nil || store.conversationCount() > 0
        case .conversation(let id): store.conversation(id: id) != nil
        case .items(let id):
            store.meta(target.fetchedKey) != nil || store.hasMessages(conversationId: id, moreThan: 0)
                || store.conversation(id: id)?.isLocal == true
        }
    }

    /// Fetches what the watcher shows from the server and emits.
    /// `fromServer`: ask the server even for a conversation this device
    /// started, which the server turned out to have (a gap, D8).
    func refresh(_ id: Int, fromServer: Bool = false) async {
        guard let entry = watchers[id] else { return }
        // A refresh throws nothing: its failures go to the machine, which
        // says what the watcher shows (`refreshFailed`).
        try? await perform(entry.machine.refresh(localOnly: !fromServer && isLocalOnly(entry.target)), for: entry)
    }

    /// Whether the watcher's conversation exists only on this device.
    private func isLocalOnly(_ target: WatchTarget) -> Bool {
        target.conversationId.map { store.conversation(id: $0)?.isLocal == true } ?? false
    }

    /// Performs a watcher machine's actions, in order, feeding it the
    /// answers of the fetches it asks for. Throws when a page `loadMore`
    /// asked for failed for good.
    private func perform(_ actions: [WatcherMachine.Action], for entry: WatcherEntry) async throws {
        for action in actions {
            switch action {
            case .emit: emit(entry)
            case .emitAllConcerned: notifyWatchers(of: entry.target)
            case .finish(let error):
                entry.finish(error)
                watchers[entry.id] = nil
            case .fetch(let fetch):
                let answer = try await self.answer(to: fetch, for: entry)
                // A watcher stopped meanwhile takes no answer.
                guard watchers[entry.id] === entry else { return }
                try await perform(answer, for: entry)
            }
        }
    }

    /// Fetches what `fetch` asks for, stores it, and gives the outcome to
    /// the machine: the actions that follow.
    private func answer(to fetch: WatcherMachine.Fetch, for entry: WatcherEntry) async throws -> [WatcherMachine.Action] {
        switch fetch.kind {
        case .shownPages:
            do {
                let end = try await fetchShownPages(for: entry)
                return entry.machine.refreshed(fetch.id, end: end, live: realtimeCanBeLive)
            } catch {
                let chatError = error as? ChatError ?? ChatError(.networkFailure, "\(error)")
                return entry.machine.refreshFailed(fetch.id, error: chatError, hasEmitted: entry.hasEmitted)
            }
        case .nextPage(let cursor):
            do {
                guard let end = try await fetchPage(after: cursor, for: entry.target) else {
                    entry.machine.abandon(fetch.id)
                    return []
                }
                return entry.machine.pageFetched(fetch.id, end: end)
            } catch let chatError as ChatError {
                let target = entry.target
                let shown = entry.machine.pages * configuration.pageSize
                return try entry.machine.pageFailed(fetch.id, error: chatError) {
                    // Offline, the cache serves what it holds; without more, the failure shows.
                    target.conversationId.map { store.hasMessages(conversationId: $0, moreThan: shown) } ?? false
                }.get()
            } catch {
                entry.machine.abandon(fetch.id)
                throw error
            }
        }
    }

    /// Whether data fetched now stays the server's: the realtime
    /// connection is up or on its way (catch-up covers the gap), not down
    /// nor closed by the app being in the background (D1).
    var realtimeCanBeLive: Bool {
        if background { return false }
        if case .waitingForNetwork = connection { return false }
        return true
    }

    /// Fetches again every page the watcher shows (D3: pages already loaded
    /// survive a refetch), following the server's cursors, so that the
    /// cursor `loadMore` continues from is right after what is shown.
    /// Fetching only the first page left the shown pages beyond it as the
    /// cache had them: after a reconnection without catch-up they could
    /// have a gap (new messages, then old ones), and the next `loadMore`
    /// went on from the first page while the watcher said fresh.
    /// Returns where the server's list goes on after them (nil for a
    /// single conversation).
    private func fetchShownPages(for entry: WatcherEntry) async throws -> WatcherMachine.ListEnd? {
        let limit = configuration.pageSize
        switch entry.target {
        case .conversation(let id):
            guard case .conversation(let conversation) = try await request(.getConversation(id: id)) else { return nil }
            store.upsert(conversationRow(from: conversation))
            return nil
        case .conversations, .items:
            var end = WatcherMachine.ListEnd.end
            var fetched = 0
            repeat {
                guard let next = try await fetchPage(after: end.cursor, for: entry.target) else { return nil }
                end = next
                fetched += limit
            } while end.cursor != nil && fetched < entry.machine.pages * limit
            store.setMeta(entry.target.fetchedKey, "1")
            return end
        }
    }

    /// The `loadMore` of a watcher's `PaginatedList`.
    nonisolated func loadMoreAction(_ id: Int) -> @Sendable () async throws -> Void {
        { try await self.loadMore(id) }
    }

    /// One more page (D3): from the cache when it has one, else the server.
    func loadMore(_ id: Int) async throws {
        configuration.flightRecorder?.call(.loadMore(watcher: id))
        guard let entry = watchers[id] else {
            throw ChatError(.invalidArgument, "The watcher has ended")
        }
        try await perform(entry.machine.loadMore(localOnly: isLocalOnly(entry.target)), for: entry)
    }

    /// The server's page after `cursor` of a paginated watcher's list,
    /// stored; returns where the list goes on (nil: no such list).
    private func fetchPage(after cursor: String?, for target: WatchTarget) async throws -> WatcherMachine.ListEnd? {
        let limit = configuration.pageSize
        switch target {
        case .conversation:
            return nil
        case .conversations:
            guard case .conversations(let page) = try await request(.listConversations(cursor: cursor, limit: limit)) else { return nil }
            store.batch { for conversation in page.elements { store.upsert(conversationRow(from: conversation)) } }
            return WatcherMachine.ListEnd(nextCursor: page.nextCursor)
        case .items(let conversationId):
            guard case .messages(let page) = try await request(.listMessages(conversationId: conversationId, cursor: cursor, limit: limit))
            else { return nil }
            store.batch { for message in page.elements { storeServerMessage(message) } }
            return WatcherMachine.ListEnd(nextCursor: page.nextCursor)
        }
    }

    /// Re-emits every watcher that shows `target`'s data. Watchers that show
    /// the same thing (same target, pages and server state) share one
    /// snapshot: the store is read once per distinct view, not per watcher.
    func notifyWatchers(of target: WatchTarget) {
        var snapshots: [SnapshotKey: WatcherSnapshot?] = [:]
        for id in watchers.keys.sorted() {
            guard let entry = watchers[id] else { continue }
            let concerned: Bool =
                switch (target, entry.target) {
                case (.conversations, _): true
                case (_, .conversations): true
                case (.conversation(let a), .conversation(let b)), (.conversation(let a), .items(let b)),
                    (.items(let a), .conversation(let b)), (.items(let a), .items(let b)):
                    a == b
                }
            if concerned, entry.hasEmitted { emit(entry, sharing: &snapshots) }
        }
    }

    /// What a snapshot depends on besides the store and the clock.
    struct SnapshotKey: Hashable {
        var target: WatchTarget
        var pages: Int
        var serverExhausted: Bool
    }

    /// `emit(_:)`, reusing a snapshot already read for an identical view.
    private func emit(_ entry: WatcherEntry, sharing snapshots: inout [SnapshotKey: WatcherSnapshot?]) {
        let key = SnapshotKey(target: entry.target, pages: entry.machine.pages, serverExhausted: entry.machine.serverExhausted)
        let stamp = readStamp(for: entry)
        if let shown = entry.shown, shown.readFrom == stamp {
            emit(entry, snapshot: shown.snapshot, readFrom: stamp)
            return
        }
        let snapshot: WatcherSnapshot?
        if let known = snapshots[key] {
            snapshot = known
        } else {
            snapshot = readSnapshot(for: entry)
            snapshots[key] = snapshot
        }
        emit(entry, snapshot: snapshot, readFrom: stamp)
    }

    /// Emits the watcher's current data unless it is what it emitted last.
    /// The store is read again only when it, the watcher's pages or server
    /// state, or (for conversations) the clock changed since the last read.
    func emit(_ entry: WatcherEntry) {
        let stamp = readStamp(for: entry)
        if let shown = entry.shown, shown.readFrom == stamp {
            emit(entry, snapshot: shown.snapshot, readFrom: stamp)
        } else {
            emit(entry, snapshot: readSnapshot(for: entry), readFrom: stamp)
        }
    }

    private func emit(_ entry: WatcherEntry, snapshot: WatcherSnapshot?, readFrom stamp: WatcherEntry.ReadStamp) {
        guard let snapshot else { return }
        let (fresh, refreshing) = (entry.machine.fresh, entry.machine.refreshing)
        let unchanged = entry.shown.map { $0.snapshot == snapshot && $0.fresh == fresh && $0.refreshing == refreshing } ?? false
        entry.shown = WatcherEntry.Shown(snapshot: snapshot, fresh: fresh, refreshing: refreshing, readFrom: stamp)
        if !unchanged { entry.yield(entry.id, snapshot, fresh, refreshing) }
    }

    private func readStamp(for entry: WatcherEntry) -> WatcherEntry.ReadStamp {
        WatcherEntry.ReadStamp(
            version: store.version, pages: entry.machine.pages, serverExhausted: entry.machine.serverExhausted,
            now: entry.target.isItems ? nil : now)
    }

    private func readSnapshot(for entry: WatcherEntry) -> WatcherSnapshot? {
        let shown = entry.machine.pages * configuration.pageSize
        let serverExhausted = entry.machine.serverExhausted
        switch entry.target {
        case .conversations:
            let rows = store.conversations(limit: shown + 1)
            let hasMore = rows.count > shown || !serverExhausted
            return .conversations(rows.prefix(shown).map(conversation(from:)), hasMore: hasMore)
        case .conversation(let id):
            return store.conversation(id: id).map { .conversation(conversation(from: $0)) }
        case .items(let id):
            let rows = store.messages(conversationId: id, limit: shown + 1)
            let isLocal = store.conversation(id: id)?.isLocal ?? false
            let hasMore = rows.count > shown || (!serverExhausted && !isLocal)
            let readSeq = store.conversation(id: id)?.providerReadSeq
            return .items(rows.prefix(shown).map { message(from: $0, providerReadSeq: readSeq) }, hasMore: hasMore)
        }
    }

    func conversationSnapshot(_ id: String) throws -> Conversation? {
        try checkRunning()
        _ = try requireUser()
        return store.conversation(id: id).map(conversation(from:))
    }

    func messageSnapshot(_ id: String) throws -> Message? {
        try checkRunning()
        _ = try requireUser()
        return store.message(id: id).map(message(from:))
    }

    // MARK: Rows ↔ models

    func conversation(from row: ConversationRow) -> Conversation {
        Conversation(
            id: row.id, title: row.title, isLocal: row.isLocal,
            createdAt: Date(milliseconds: row.createdAt), updatedAt: Date(milliseconds: row.updatedAt),
            messageCount: Int(row.lastSeq) + store.unsentCount(conversationId: row.id),
            lastMessagePreview: row.preview,
            providerTyping: row.providerTypingUntil.map { $0 > now.milliseconds } ?? false,
            draft: drafts[row.id])
    }

    func conversationRow(from wire: WireConversation) -> ConversationRow {
        ConversationRow(
            id: wire.id, title: wire.title, isLocal: false,
            createdAt: wire.createdAt.milliseconds, updatedAt: wire.updatedAt.milliseconds,
            lastSeq: wire.lastSeq, preview: wire.lastMessagePreview,
            providerTypingUntil: wire.providerTypingUntil?.milliseconds,
            providerReadSeq: wire.providerReadSeq)
    }

    func message(from row: MessageRow) -> Message {
        message(from: row, providerReadSeq: store.conversation(id: row.conversationId)?.providerReadSeq)
    }

    /// The model of a message row, read by a provider when the
    /// conversation's read position covers its seq.
    func message(from row: MessageRow, providerReadSeq: Int64?) -> Message {
        let state = SendState(row.state, error: ChatError(ChatError.Code(rawValue: row.errorCode ?? "unknown"), row.errorMessage ?? ""))
        return Message(
            id: row.id, conversationId: row.conversationId, seq: row.seq, author: row.author,
            content: row.content, replyTo: row.replyTo, createdAt: Date(milliseconds: row.createdAt), state: state,
            isReadByProvider: row.seq.map { seq in providerReadSeq.map { seq <= $0 } ?? false } ?? false)
    }

    /// Stores a message the server has, keeping the local order of our own.
    func storeServerMessage(_ wire: WireMessage) {
        let existing = store.message(id: wire.id)
        let row = MessageRow(
            id: wire.id, conversationId: wire.conversationId, seq: wire.seq,
            localOrder: existing?.localOrder ?? 0, author: MessageAuthor(wire.author), content: MessageContent(wire.content),
            replyTo: wire.replyTo, createdAt: existing?.createdAt ?? wire.createdAt.milliseconds,
            state: .sent, errorCode: nil, errorMessage: nil)
        noteAttachment(of: wire)
        // The realtime echo of a message the send reply already stored.
        guard row != existing else { return }
        save(row)
        // A message of ours that was pending counted as unsent; now that it
        // has its seq, the conversation counts it, even before the
        // conversation's own update arrives (over a real network it can
        // come second).
        if let existing, existing.seq == nil,
            var conversation = store.conversation(id: wire.conversationId), conversation.lastSeq < wire.seq
        {
            conversation.lastSeq = wire.seq
            store.upsert(conversation)
        }
    }
}
