internal import ChatCore
import Foundation

/// Attachments carry bytes (D6, A14): the outbox uploads a message's bytes,
/// then sends the message naming them; a received attachment's bytes are
/// read from the server by members of its conversation.
extension ClientCore {
    /// The limits checked before any byte leaves: bytes there are, no more
    /// than any server accepts, and the size the content says.
    static func checkAttachment(_ data: Data, of content: MessageContent) throws {
        guard case .attachment(_, _, let size, _) = content else {
            throw ChatError(.invalidArgument, "Bytes go with an attachment, not with a text message")
        }
        guard !data.isEmpty else { throw ChatError(.invalidArgument, "An attachment must have at least one byte") }
        guard Int64(data.count) <= WireLimits.maxAttachmentBytes else {
            throw ChatError(
                .attachmentTooLarge,
                "An attachment is at most \(WireLimits.maxAttachmentBytes) bytes, this one is \(data.count); nothing was uploaded")
        }
        guard size == Int64(data.count) else {
            throw ChatError(.invalidArgument, "The attachment says \(size) bytes, the data has \(data.count)")
        }
    }

    /// The app's limits, once known, refuse an attachment before any byte
    /// leaves, with the reason the server gives (`attachmentTooLarge`,
    /// `unsupportedMediaType`); until then the server's check is the one.
    func checkAppLimits(of content: MessageContent) throws {
        guard let appLimits, case .attachment(_, let mimeType, let size, _) = content else { return }
        do {
            try appLimits.check(mimeType: mimeType, size: size)
        } catch {
            throw ChatError(error)
        }
    }

    /// Uploads the bytes of an outgoing message, unless done already (a
    /// retry after the upload worked sends the message only). `proceed` is
    /// false when the queue's user changed meanwhile; `id` names the bytes
    /// (nil for a message without).
    func uploadAttachment(of row: MessageRow, by sender: OutboxMachine.Sender) async throws -> (proceed: Bool, id: String?) {
        guard case .attachment(_, let mimeType, _, _) = row.content, let stored = store.attachment(messageId: row.id) else {
            return (true, nil)
        }
        if let id = stored.attachmentId { return (true, id) }
        guard let data = stored.data else { return (true, nil) }
        // The app's limits first (read once): bytes they refuse never leave.
        if appLimits == nil, case .limits(let limits) = try await request(.appLimits) { appLimits = limits }
        guard outbox.isCurrent(sender) else { return (false, nil) }
        try checkAppLimits(of: row.content)
        let response: WireResponse
        do {
            response = try await request(.uploadAttachment(mimeType: mimeType, data: data))
        } catch let error as ChatError where error.code == .attachmentTooLarge || error.code == .unsupportedMediaType {
            // The app's limits changed since they were read: read again next time.
            appLimits = nil
            throw error
        }
        guard outbox.isCurrent(sender) else { return (false, nil) }
        guard case .attachment(let uploaded) = response else {
            throw ChatError(.invalidResponse, "The server answered an upload with something else")
        }
        store.setAttachment(AttachmentRow(attachmentId: uploaded.id, data: data), messageId: row.id)
        return (true, uploaded.id)
    }

    /// Uploads a message's bytes, unless done already, and sends the
    /// message naming them; nil when the queue's user changed meanwhile.
    /// If the server no longer has the bytes (no message named them for 24
    /// hours, as when a send waited a day for the network), they go again,
    /// once, and the message names the new copy.
    func uploadAndSend(_ row: MessageRow, create: NewConversation?, by sender: OutboxMachine.Sender) async throws -> WireResponse? {
        var mayUploadAgain = true
        while true {
            let (proceed, attachmentId) = try await uploadAttachment(of: row, by: sender)
            guard proceed else { return nil }
            do {
                return try await request(
                    .sendMessage(
                        conversationId: row.conversationId, createConversation: create,
                        message: NewMessage(id: row.id, content: WireContent(row.content, attachmentId: attachmentId), replyTo: row.replyTo)
                    ))
            } catch let error as ChatError
                where error.code == .unknownAttachment && mayUploadAgain && outbox.isCurrent(sender) && forgetUpload(of: row.id)
            {
                mayUploadAgain = false
            }
        }
    }

    /// Forgets the server's id for an unsent message's bytes, which the
    /// server no longer has, so the next upload sends them again; false
    /// when there is nothing to upload again (no bytes here, or no id).
    func forgetUpload(of messageId: String) -> Bool {
        guard let stored = store.attachment(messageId: messageId), stored.attachmentId != nil, let data = stored.data else {
            return false
        }
        store.setAttachment(AttachmentRow(attachmentId: nil, data: data), messageId: messageId)
        return true
    }

    /// Keeps the id of a server message's bytes; the bytes of a message of
    /// ours, now sent, leave the cache; bytes fetched before stay.
    func noteAttachment(of wire: WireMessage) {
        guard case .attachment(_, _, _, _, let id?) = wire.content else { return }
        if let stored = store.attachment(messageId: wire.id), stored.attachmentId == id, stored.data == nil || stored.fetched { return }
        store.setAttachment(AttachmentRow(attachmentId: id, data: nil), messageId: wire.id)
    }

    /// The bytes of the profile image at `profileURL` (A14), read from the
    /// server, which gives them to anyone of the app.
    func profileImageData(at profileURL: String) async throws -> AttachmentData {
        try checkRunning()
        _ = try requireUser()
        guard let id = HTTPWire.attachmentId(inProfileURL: profileURL) else {
            throw ChatError(
                .invalidArgument, "\(profileURL) is not a profile image uploaded to the server (\(HTTPWire.attachmentsPath)/ID)")
        }
        guard case .attachmentData(let type, let data) = try await request(.attachmentData(id: id)) else {
            throw ChatError(.invalidResponse, "The server answered a read of bytes with something else")
        }
        return AttachmentData(data: data, mimeType: type, source: .network)
    }

    /// The bytes of a message's attachment, with their type: from the
    /// cache while the message is not sent or once fetched, else from the
    /// server (and then kept in the cache, within
    /// `attachmentCacheBytes`).
    func attachmentData(of messageId: String) async throws -> AttachmentData {
        try checkRunning()
        _ = try requireUser()
        guard let message = store.message(id: messageId) else {
            throw ChatError(.unknownMessage, "No message \(messageId) on this device")
        }
        guard case .attachment(_, let mimeType, _, _) = message.content, let held = store.attachment(messageId: messageId) else {
            throw ChatError(.unknownAttachment, "Message \(messageId) has no attachment bytes")
        }
        if let data = held.data { return AttachmentData(data: data, mimeType: held.mimeType ?? mimeType, source: .cache) }
        guard let id = held.attachmentId else {
            throw ChatError(.unknownAttachment, "Message \(messageId) has no attachment bytes")
        }
        let call = machine.openCall()
        defer { machine.closeCall(call) }
        guard case .attachmentData(let type, let data) = try await request(.attachmentData(id: id), in: call) else {
            throw ChatError(.invalidResponse, "The server answered a read of bytes with something else")
        }
        // Unless the user changed meanwhile (the call no longer counts):
        // the bytes are not the new user's.
        if machine.isOpen(call) {
            store.keepFetched(data, mimeType: type, messageId: messageId, limit: configuration.attachmentCacheBytes)
        }
        return AttachmentData(data: data, mimeType: type, source: .network)
    }
}
