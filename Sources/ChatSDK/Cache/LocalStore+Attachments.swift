import Foundation
internal import GRDB

/// A message's attachment as the cache holds it: the server's id of its
/// bytes once uploaded, and the bytes while the message is not sent.
struct AttachmentRow: Sendable, Hashable {
    var attachmentId: String?
    var data: Data?
}

extension LocalStore {
    /// The attachment of message `messageId`, if the cache holds one.
    func attachment(messageId: String) -> AttachmentRow? {
        access { db in
            try Row.fetchOne(
                db.cachedStatement(sql: "SELECT attachmentId, data FROM attachment WHERE messageId = ?"), arguments: [messageId]
            ).map { AttachmentRow(attachmentId: $0[0], data: $0[1]) }
        }.flatMap { $0 }
    }

    /// Keeps (or replaces) the attachment of message `messageId`.
    func setAttachment(_ row: AttachmentRow, messageId: String) {
        willWrite()
        access { db in
            try db.cachedStatement(
                sql: """
                    INSERT INTO attachment (messageId, attachmentId, data) VALUES (?, ?, ?)
                    ON CONFLICT (messageId) DO UPDATE SET attachmentId = excluded.attachmentId, data = excluded.data
                    """
            ).execute(arguments: [messageId, row.attachmentId, row.data])
        }
    }
}
