import ChatCore
import Crypto
import Foundation
import GRDB

/// Attachments carry bytes (A14, D6): a client uploads them first, then
/// sends the message whose content names them by id. Who may read them
/// follows from the message: members of its conversation only.
extension Backend {
    /// uploadAttachment; see ``WireRequest/uploadAttachment(mimeType:data:)``.
    func uploadAttachment(_ caller: Caller, mimeType: String, data: Data) throws(WireError) -> WireAttachment {
        try Self.checkAttachment(mimeType: mimeType, size: Int64(data.count), settings: caller.settings)
        return try storeAttachment(caller, purpose: "message", mimeType: mimeType, data: data)
    }

    /// The settings an upload is checked against, for a caller whose
    /// credentials are good: what the server reads before a body's bytes.
    package func uploadSettings(apiKey: String, accessToken: String?) throws(WireError) -> AppSettings {
        try authenticate(apiKey: Identifier.normalized(apiKey), accessToken: accessToken).settings
    }

    /// Checks an upload's type and size against the app's settings, before
    /// any byte is stored (the server calls it before reading a body).
    package static func checkAttachment(mimeType: String, size: Int64, settings: AppSettings) throws(WireError) {
        guard size > 0 else { throw WireError(.badRequest, "The attachment is empty") }
        try checkLimits(mimeType: mimeType, size: size, settings: settings)
    }

    /// The app's limits on an attachment, with or without its bytes.
    static func checkLimits(mimeType: String, size: Int64, settings: AppSettings) throws(WireError) {
        try settings.attachmentLimits.check(mimeType: mimeType, size: size)
    }

    /// Stores bytes already checked, under a new id.
    func storeAttachment(_ caller: Caller, purpose: String, mimeType: String, data: Data) throws(WireError) -> WireAttachment {
        let now = environment.now()
        return try write { db in
            try insertAttachment(
                db, apiKey: caller.apiKey, uploaderId: caller.userId, conversationId: nil, purpose: purpose, mimeType: mimeType, data: data,
                now: now)
        }
    }

    /// How long bytes that no message names, nor a profile, are kept after
    /// their upload, on the backend's clock (the embedded world's virtual
    /// one): 24 hours. From then on they are unknown to every request.
    package static let unnamedAttachmentLifetime: Duration = .seconds(24 * 3600)

    /// Whether bytes uploaded at `createdAt` (milliseconds) that no message
    /// names have outlived ``unnamedAttachmentLifetime`` at `now`.
    static func isExpired(createdAt: Int64, now: Instant) -> Bool {
        now.milliseconds - createdAt >= unnamedAttachmentLifetime.components.seconds * 1000
    }

    /// Drops the bytes no message names, nor a profile, that have outlived
    /// ``unnamedAttachmentLifetime``: inside the write of each upload, of
    /// each message or profile that names an upload, and of an inspection.
    func dropUnnamedAttachments(_ db: Database, now: Instant) throws {
        try db.cachedStatement(
            sql: "DELETE FROM attachment WHERE purpose = 'message' AND conversationId IS NULL AND createdAt <= ?"
        ).execute(arguments: [now.milliseconds - Self.unnamedAttachmentLifetime.components.seconds * 1000])
    }

    /// Inserts checked bytes under a new id, inside a write (which drops
    /// the uploads no message named in time first).
    func insertAttachment(
        _ db: Database, apiKey: String, uploaderId: String, conversationId: String?, purpose: String, mimeType: String, data: Data,
        now: Instant
    ) throws -> WireAttachment {
        try dropUnnamedAttachments(db, now: now)
        let digest = Self.sha256(data)
        var id = environment.makeID("att-")
        while try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM attachment WHERE id = ?"), arguments: [id]) == true {
            id = environment.makeID("att-")
        }
        try db.cachedStatement(
            sql: """
                INSERT INTO attachment (id, apiKey, uploaderId, conversationId, purpose, mimeType, size, sha256, data, createdAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            id, apiKey, uploaderId, conversationId, purpose, mimeType.lowercased(), data.count, digest, data, now.milliseconds,
        ])
        return WireAttachment(id: id, mimeType: mimeType.lowercased(), size: Int64(data.count), sha256: digest)
    }

    /// The attachments app `apiKey` holds, oldest first, once the uploads
    /// no message named in time are dropped (as at an upload).
    package func attachments(apiKey: String) throws(WireError) -> [HTTPWire.AppAttachment] {
        let now = environment.now()
        return try write { db in
            try dropUnnamedAttachments(db, now: now)
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT id, uploaderId, conversationId, purpose, mimeType, size, createdAt FROM attachment
                    WHERE apiKey = ? ORDER BY createdAt, id
                    """, arguments: [apiKey]
            ).map { row in
                HTTPWire.AppAttachment(
                    id: row["id"], uploaderId: AppKey.visible(row["uploaderId"] as String),
                    conversationId: AppKey.visible(row["conversationId"] as String?), purpose: row["purpose"], mimeType: row["mimeType"],
                    size: row["size"], createdAt: Instant(milliseconds: row["createdAt"]))
            }
        }
    }

    /// The SHA-256 of `data`, in lowercase hex.
    package static func sha256(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    /// attachmentData; see ``WireRequest/attachmentData(id:)``. Whoever may
    /// not read the bytes gets the answer an unknown id gets.
    func attachmentData(_ caller: Caller, id: String) throws(WireError) -> (mimeType: String, data: Data) {
        let now = environment.now()
        return try read { db in
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT a.mimeType, a.data, a.apiKey, a.uploaderId, a.purpose, a.conversationId, a.createdAt, c.ownerId
                            FROM attachment a LEFT JOIN conversation c ON c.id = a.conversationId WHERE a.id = ?
                            """), arguments: [id]),
                Self.mayRead(row, caller: caller, now: now)
            else {
                throw WireError(.unknownAttachment)
            }
            return (row["mimeType"], row["data"])
        }
    }

    /// Whether `caller` may read an attachment's bytes: a profile image,
    /// anyone of its app; bytes a message names, the owner of that message's
    /// conversation; bytes no message names yet, their uploader, for
    /// ``unnamedAttachmentLifetime``.
    private static func mayRead(_ row: Row, caller: Caller, now: Instant) -> Bool {
        guard (row["apiKey"] as String).isSameIdentifier(as: caller.apiKey) else { return false }
        if (row["purpose"] as String) == "profile" { return true }
        if (row["conversationId"] as String?) != nil {
            return (row["ownerId"] as String?)?.isSameIdentifier(as: caller.userId) == true
        }
        return (row["uploaderId"] as String).isSameIdentifier(as: caller.userId) && !isExpired(createdAt: row["createdAt"], now: now)
    }

    /// The other side (S2): the agent sends a file in a conversation. The
    /// bytes are checked against the app's settings, stored as read by the
    /// conversation's owner, and named by a new message of the agent's.
    /// `conversationId` is the conversation's key (``AppKey``); ``AppScope`` takes an app's id.
    package func agentSendAttachment(
        conversationId: String, kind: WireContent.AttachmentKind, mimeType: String, fileName: String?, data: Data,
        agentName: String = "agent"
    ) throws(WireError) -> WireMessage {
        let conversationId = Identifier.normalized(conversationId)
        if let fileName, fileName.unicodeScalars.count > 1_024 {
            throw WireError(.badRequest, "The attachment file name is longer than 1024 characters")
        }
        let now = environment.now()
        let (ownerId, message) = try write { db -> (String, WireMessage) in
            guard let row = try conversationRow(db, id: conversationId) else { throw WireError(.unknownConversation) }
            let apiKey = try ownerApp(db, conversation: row)
            try Self.checkAttachment(mimeType: mimeType, size: Int64(data.count), settings: try Self.appSettings(db, apiKey: apiKey))
            let ownerId: String = row["ownerId"]
            let stored = try insertAttachment(
                db, apiKey: apiKey, uploaderId: ownerId, conversationId: conversationId, purpose: "message", mimeType: mimeType,
                data: data, now: now)
            var messageId = environment.makeID("msg-")
            while try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT 1 FROM message WHERE conversationId = ? AND id = ?"),
                arguments: [conversationId, messageId])
                == true
            {
                messageId = environment.makeID("msg-")
            }
            let content = WireContent.attachment(
                kind: kind, mimeType: stored.mimeType, size: stored.size, fileName: fileName, id: stored.id)
            let (_, message) = try appendMessage(
                db, conversation: row, id: messageId, author: .provider(name: agentName), content: content, replyTo: nil, now: now,
                clearProviderTyping: true)
            return (ownerId, message)
        }
        deliverEvents(userId: ownerId)
        return message
    }

    /// Makes bytes the caller uploaded, and no message names, a profile
    /// image: anyone of the app may read them from then on.
    func makeProfileImage(_ db: Database, attachmentId: String, mimeType: String, size: Int64, caller: Caller) throws {
        try dropUnnamedAttachments(db, now: environment.now())
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql:
                        "SELECT uploaderId, conversationId, mimeType, size FROM attachment WHERE id = ? AND apiKey = ? AND purpose = 'message'"
                ),
                arguments: [attachmentId, caller.apiKey]),
            (row["uploaderId"] as String).isSameIdentifier(as: caller.userId), (row["conversationId"] as String?) == nil
        else {
            throw WireError(.unknownAttachment)
        }
        guard (row["mimeType"] as String) == mimeType, (row["size"] as Int64) == size else {
            throw WireError(
                .badRequest,
                "The profile image says \(mimeType) of \(size) bytes; the uploaded bytes are \(row["mimeType"] as String) of \(row["size"] as Int64)"
            )
        }
        try db.cachedStatement(sql: "UPDATE attachment SET purpose = 'profile' WHERE id = ?").execute(arguments: [attachmentId])
    }

    /// Ties the bytes a new message names to its conversation: they must be
    /// the caller's own upload, not yet sent in another conversation, and of
    /// the type and size the content says. Inside the send's transaction.
    func bindAttachment(_ db: Database, content: WireContent, conversationId: String, caller: Caller) throws {
        guard case .attachment(_, let mimeType, let size, _, let id?) = content else { return }
        try dropUnnamedAttachments(db, now: environment.now())
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: "SELECT uploaderId, conversationId, mimeType, size, purpose FROM attachment WHERE id = ? AND apiKey = ?"),
                arguments: [id, caller.apiKey]),
            (row["uploaderId"] as String).isSameIdentifier(as: caller.userId), (row["purpose"] as String) == "message"
        else {
            throw WireError(.unknownAttachment)
        }
        if let bound = row["conversationId"] as String?, !bound.isSameIdentifier(as: conversationId) {
            throw WireError(.badRequest, "The attachment was sent in another conversation")
        }
        guard (row["mimeType"] as String) == mimeType.lowercased(), (row["size"] as Int64) == size else {
            throw WireError(
                .badRequest,
                "The message says \(String(mimeType.prefix(100))) of \(size) bytes; the uploaded attachment is \(row["mimeType"] as String) of \(row["size"] as Int64) bytes"
            )
        }
        try db.cachedStatement(sql: "UPDATE attachment SET conversationId = ? WHERE id = ?").execute(arguments: [conversationId, id])
    }
}
