extension ClientCore {
    /// How often the SDK renews "typing" while it stays on.
    static let typingRenewal: Duration = .seconds(4)

    func setIsTyping(_ isTyping: Bool, in conversationId: String) async throws {
        try checkRunning()
        _ = try requireUser()
        guard let conversation = store.conversation(id: conversationId) else {
            throw ChatError(.unknownConversation, "No conversation \(conversationId) on this device")
        }
        typingRenewals[conversationId]?.cancel()
        typingRenewals[conversationId] = nil
        // A local conversation has no one to tell yet.
        guard !conversation.isLocal else { return }
        _ = try await request(.setTyping(conversationId: conversationId, isTyping: isTyping))
        guard isTyping else { return }
        let runtime = self.runtime
        // A renewal is its task: turning typing off, a new session or a
        // clear cancels it, and it stops at its next step.
        typingRenewals[conversationId] = runtime.spawn {
            while true {
                do { try await runtime.sleep(for: Self.typingRenewal, kind: .lifecycle("renew typing in \(conversationId)")) } catch {
                    return
                }
                guard !Task.isCancelled else { return }
                _ = try? await self.request(.setTyping(conversationId: conversationId, isTyping: true))
            }
        }
    }
}
