internal import ChatCore
import Foundation

extension ClientCore {
    /// A conversation that exists only on this device until its first
    /// message creates it on the server (D4).
    func startConversation(id: String?, title: String?) async throws -> Conversation {
        try checkRunning()
        if let id, let problem = WireLimits.identifierProblem(id) {
            throw ChatError(.invalidArgument, "The conversation id \(problem)")
        }
        _ = try await ensureUser()
        if let id, let existing = store.conversation(id: id) { return conversation(from: existing) }
        let row = ConversationRow(
            id: id ?? runtime.makeID(prefix: "c-"), title: title, isLocal: true,
            createdAt: now.milliseconds, updatedAt: now.milliseconds, lastSeq: 0, preview: nil, providerTypingUntil: nil)
        store.upsert(row)
        notifyWatchers(of: .conversation(row.id))
        return conversation(from: row)
    }

    /// Adds the message locally at once (`toBeSent`) and queues it; messages
    /// of one conversation go out one at a time, in order (D6).
    ///
    /// `data`: an attachment's bytes, kept in the cache with the message
    /// until it is sent; the send uploads them first (one item of the outbox).
    ///
    /// A conversation this device does not hold (opened from a push, after
    /// a sign-in with an empty memory cache, or on a second device) is
    /// asked of the server first, as a watcher asks it (D5).
    func sendMessage(_ content: MessageContent, data: Data? = nil, replyingTo: String?, in conversationId: String) async throws
        -> Message
    {
        try checkRunning()
        _ = try requireUser()
        if store.conversation(id: conversationId) == nil { try await fetchConversation(conversationId) }
        let user = try requireUser()
        guard var conversation = store.conversation(id: conversationId) else {
            throw ChatError(.unknownConversation, "No conversation \(conversationId) on this device")
        }
        switch content {
        case .text(let text) where text.isEmpty:
            throw ChatError(.invalidArgument, "A text message cannot be empty")
        case .attachment(_, _, let size, _) where size <= 0:
            throw ChatError(.invalidArgument, "An attachment must have a positive size, got \(size)")
        default: break
        }
        if let data {
            try Self.checkAttachment(data, of: content)
            try checkAppLimits(of: content)
        }
        if let replyingTo, store.message(id: replyingTo) == nil {
            throw ChatError(.unknownMessage, "No message \(replyingTo) to reply to")
        }
        let row = MessageRow(
            id: runtime.makeID(prefix: "m-"), conversationId: conversationId, seq: nil,
            localOrder: store.nextLocalOrder(), author: .user(id: user), content: content,
            replyTo: replyingTo, createdAt: now.milliseconds, state: .toBeSent, errorCode: nil, errorMessage: nil)
        conversation.updatedAt = now.milliseconds
        // The message appears: one commit.
        store.batch {
            save(row)
            if let data { store.setAttachment(AttachmentRow(attachmentId: nil, data: data), messageId: row.id) }
            store.upsert(conversation)
        }
        let message = message(from: row)
        notifyWatchers(of: .items(conversationId))
        enqueueSend(message.id, in: conversationId)
        return message
    }

    /// Stores the server's conversation `id` on this device, for a call of
    /// the app's that needs it here; `unknownConversation` when the server
    /// does not have it either (for this user), and the network's error
    /// when it cannot be asked. Kept only if the user is still the one the
    /// call began with.
    func fetchConversation(_ id: String) async throws {
        let call = machine.openCall()
        defer { machine.closeCall(call) }
        let answer: WireResponse
        do {
            answer = try await request(.getConversation(id: id), in: call)
        } catch let error as ChatError where error.code == .unknownConversation {
            throw ChatError(.unknownConversation, "No conversation \(id) on this device or the server")
        }
        try check(call)
        guard case .conversation(let conversation) = answer else {
            throw ChatError(.unknownConversation, "No conversation \(id) on this device or the server")
        }
        if store.conversation(id: id) == nil { storeServerConversation(conversation) }
    }

    /// Sends a failed message again with the same client id (D6).
    func retrySending(itemId: String) throws {
        try checkRunning()
        _ = try requireUser()
        guard var row = store.message(id: itemId) else {
            throw ChatError(.unknownMessage, "No message \(itemId) on this device")
        }
        guard row.state == .failed else {
            throw ChatError(.notRetryable, "Message \(itemId) is \(row.state), only a failed message can be retried")
        }
        row.state = .toBeSent
        row.errorCode = nil
        row.errorMessage = nil
        save(row)
        notifyWatchers(of: .items(row.conversationId))
        enqueueSend(itemId, in: row.conversationId)
    }

    func enqueueSend(_ messageId: String, in conversationId: String) {
        if let sender = outbox.enqueue(messageId, in: conversationId) { spawn(sender) }
    }

    /// Runs a conversation's sender: its messages go out one at a time.
    func spawn(_ sender: OutboxMachine.Sender) {
        runtime.spawn { await self.drain(sender) }
    }

    private func drain(_ sender: OutboxMachine.Sender) async {
        while let messageId = outbox.next(sender) {
            // Waiting (for the network or a back-off): the sender has ended,
            // and the queue goes again when the outbox says (D7).
            guard await sendOne(messageId, by: sender) else { return }
            outbox.finished(sender)
        }
    }

    /// Sends one message; false when its queue must wait (it is `toBeSent`
    /// again, at the head).
    private func sendOne(_ messageId: String, by sender: OutboxMachine.Sender) async -> Bool {
        guard var row = store.message(id: messageId) else { return true }
        switch outbox.attempt(state: row.state, autoResend: configuration.autoResend) {
        case .skip:
            return true
        case .waitForNetwork:
            outbox.waitForNetwork(sender)
            return false
        case .failOffline:
            fail(&row, with: ChatError(.offline, "The device is offline"))
            notifyWatchers(of: .items(row.conversationId))
            return true
        case .send:
            break
        }
        row.state = .sending
        save(row)
        notifyWatchers(of: .items(row.conversationId))
        let conversation = store.conversation(id: row.conversationId)
        let create = conversation?.isLocal == true ? NewConversation(title: conversation?.title) : nil
        // Events that arrive meanwhile are written with the outcome.
        let awaiting = store
        awaiting.awaitAnswer()
        defer { awaiting.answerArrived() }
        do {
            // Its bytes first, once: the message then names them.
            guard let response = try await uploadAndSend(row, create: create, by: sender) else { return true }
            // The user changed meanwhile: the answer is not theirs.
            guard outbox.isCurrent(sender) else { return true }
            if case .sent(let wireConversation, let wireMessage) = response {
                // Its outcome: one commit.
                store.batch {
                    storeServerConversation(wireConversation)
                    storeServerMessage(wireMessage)
                }
                // A conversation this device started turned out to exist on
                // the server already (another device of the user made it):
                // what its watchers show may miss the messages around this
                // one (D8), so they fetch their pages again.
                if create != nil, wireMessage.seq != 1 || wireConversation.lastSeq != wireMessage.seq {
                    refetchAfterGap(in: row.conversationId)
                }
            }
        } catch {
            guard outbox.isCurrent(sender) else { return true }
            let chatError = error as? ChatError ?? ChatError(.networkFailure, "\(error)")
            // The request arrived although its answer was lost: the
            // server's event said it was sent.
            if store.message(id: row.id)?.state == .sent { return true }
            // What the transport says of the network now beats what the
            // outbox last heard (a connection cut by going offline).
            let jitter = self.jitter
            switch outbox.failed(
                sender, with: OutboxMachine.Failure(chatError), reachableNow: configuration.transport.isReachable,
                autoResend: configuration.autoResend, fraction: { jitter.fraction() })
            {
            case .waitForNetwork:
                row.state = .toBeSent
                save(row)
                notifyWatchers(of: .items(row.conversationId))
                return false
            case .backOff(let delay, let wake):
                row.state = .toBeSent
                save(row)
                notifyWatchers(of: .items(row.conversationId))
                scheduleResend(wake, after: delay)
                return false
            case .fail:
                break
            }
            fail(&row, with: chatError)
            if create != nil {
                // The conversation could not be created: what waits behind fails too (D4).
                store.batch {
                    for waiting in outbox.creationFailed(sender) {
                        if var other = store.message(id: waiting) { fail(&other, with: chatError) }
                    }
                }
            }
        }
        notifyWatchers(of: .items(row.conversationId))
        return true
    }

    /// Ends a queue's back-off `delay` from now (recovery: `settle` runs it).
    private func scheduleResend(_ wake: OutboxMachine.Wake, after delay: Duration) {
        resendTimers[wake.conversationId]?.cancel()
        let runtime = self.runtime
        resendTimers[wake.conversationId] = runtime.spawn {
            do {
                try await runtime.sleep(for: delay, kind: .recovery("resend to \(wake.conversationId) after back-off"))
            } catch {
                return
            }
            await self.backOffEnded(wake)
        }
    }

    private func backOffEnded(_ wake: OutboxMachine.Wake) {
        // A wake-up the outbox no longer waits for changes nothing.
        guard let sender = outbox.wake(wake) else { return }
        resendTimers[wake.conversationId] = nil
        spawn(sender)
    }

    /// The realtime connection opened, or the app says the network is
    /// back: queues that back off or wait go again at once (D7).
    func resendNow() {
        for timer in resendTimers.values { timer.cancel() }
        resendTimers = [:]
        for sender in outbox.linkOpened() { spawn(sender) }
    }

    /// Nothing of the outbox goes on: its queues, senders and back-offs.
    func resetOutbox() {
        outbox.reset()
        for timer in resendTimers.values { timer.cancel() }
        resendTimers = [:]
    }

    private func fail(_ row: inout MessageRow, with error: ChatError) {
        row.state = .failed
        row.errorCode = error.code.rawValue
        row.errorMessage = error.message
        save(row)
    }

    /// Stores the server's view of a conversation; it is no longer local.
    func storeServerConversation(_ wire: WireConversation) {
        let row = conversationRow(from: wire)
        let stored = store.conversation(id: row.id)
        // The realtime echo of what the send reply already stored.
        guard stored != row else { return }
        // A snapshot older than the one held (over a real network the event
        // of the conversation's creation can arrive after the answer to its
        // first message) would take the conversation back in time.
        if let stored, !stored.isLocal, Self.isOlder(row, than: stored) { return }
        store.upsert(row)
    }

    /// Whether a server snapshot of a conversation is older than another.
    static func isOlder(_ row: ConversationRow, than other: ConversationRow) -> Bool {
        row.lastSeq < other.lastSeq || (row.lastSeq == other.lastSeq && row.updatedAt < other.updatedAt)
    }
}
