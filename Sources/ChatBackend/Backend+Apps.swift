import ChatCore
import GRDB

extension Backend {
    /// The API key of the app that owns a conversation (through its owner),
    /// or nil if there is no such conversation. The server uses it to keep
    /// an app's "other side" routes to that app's conversations.
    package func apiKey(ofConversation id: String) -> String? {
        try? read { db in
            try String.fetchOne(
                db,
                sql: """
                    SELECT user.apiKey FROM conversation JOIN user ON user.id = conversation.ownerId WHERE conversation.id = ?
                    """, arguments: [id])
        }
    }

    /// The API key of the app a user belongs to, or nil if there is no such
    /// user: the server keeps an app's inspection routes to its own users.
    package func apiKey(ofUser id: String) -> String? {
        try? read { db in try String.fetchOne(db.cachedStatement(sql: "SELECT apiKey FROM user WHERE id = ?"), arguments: [id]) }
    }

    /// The user an access token was issued to, whatever its state (nil when
    /// unknown); for labelling connections, not for authentication.
    package func userId(ofAccessToken token: String) -> String? {
        try? read { db in
            try String.fetchOne(db, sql: "SELECT userId FROM token WHERE token = ? AND kind = 'access'", arguments: [token])
        }
    }
}
