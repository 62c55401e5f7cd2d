import Foundation
internal import GRDB

/// A message's attachment as the cache holds it: the server's id of its
/// bytes once uploaded, and the bytes while the message is not sent, or
/// once fetched from the server (``fetched``), with the type it gave.
struct AttachmentRow: Sendable, Hashable {
    var attachmentId: String?
    var data: Data?
    /// The bytes were fetched from the server (`data(for:)`): the cache
    /// drops them, oldest fetched first, to stay under its size limit.
    var fetched = false
    /// The type the server gave fetched bytes.
    var mimeType: String?
}

extension LocalStore {
    /// The attachment of message `messageId`, if the cache holds one.
    func attachment(messageId: String) -> AttachmentRow? {
        access { db in
            try Row.fetchOne(
                db.cachedStatement(
                    sql: "SELECT attachmentId, data, fetchedOrder IS NOT NULL, mimeType FROM attachment WHERE messageId = ?"),
                arguments: [messageId]
            ).map { AttachmentRow(attachmentId: $0[0], data: $0[1], fetched: $0[2], mimeType: $0[3]) }
        }.flatMap { $0 }
    }

    /// Keeps (or replaces) the attachment of message `messageId`: an
    /// outgoing message's bytes, or the server's id of them.
    func setAttachment(_ row: AttachmentRow, messageId: String) {
        willWrite()
        access { db in
            try db.cachedStatement(
                sql: """
                    INSERT INTO attachment (messageId, attachmentId, data, mimeType, fetchedOrder) VALUES (?, ?, ?, NULL, NULL)
                    ON CONFLICT (messageId) DO UPDATE SET attachmentId = excluded.attachmentId, data = excluded.data,
                        mimeType = NULL, fetchedOrder = NULL
                    """
            ).execute(arguments: [messageId, row.attachmentId, row.data])
        }
    }

    /// Keeps bytes fetched from the server for message `messageId` as the
    /// newest fetched; then the oldest fetched leave until all fetched
    /// bytes take at most `limit` bytes. Bytes larger than `limit` are not kept.
    func keepFetched(_ data: Data, mimeType: String, messageId: String, limit: Int64) {
        guard Int64(data.count) <= limit else { return }
        willWrite()
        access { db in
            try db.cachedStatement(
                sql: """
                    UPDATE attachment SET data = ?, mimeType = ?,
                        fetchedOrder = (SELECT COALESCE(MAX(fetchedOrder), 0) + 1 FROM attachment)
                    WHERE messageId = ? AND data IS NULL
                    """
            ).execute(arguments: [data, mimeType, messageId])
            while let used = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT SUM(length(data)) FROM attachment WHERE fetchedOrder IS NOT NULL")), used > limit
            {
                try db.cachedStatement(
                    sql: """
                        UPDATE attachment SET data = NULL, mimeType = NULL, fetchedOrder = NULL
                        WHERE messageId = (SELECT messageId FROM attachment WHERE fetchedOrder IS NOT NULL ORDER BY fetchedOrder LIMIT 1)
                        """
                ).execute()
            }
        }
    }
}
