import ChatCore
import GRDB

extension Backend {
    /// The key (``AppKey``) of the app's conversation `id`, or nil when the
    /// app has none (whether or not another app has one): the server keeps
    /// an app's "other side" routes to that app's conversations.
    package func conversationKey(apiKey: String, id: String) -> String? {
        try? read { db in try conversationKey(db, apiKey: apiKey, id: id) }
    }

    func conversationKey(_ db: Database, apiKey: String, id: String) throws -> String? {
        try String.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT c.id FROM conversation c JOIN user u ON u.id = c.ownerId
                    WHERE c.id IN (?, ?) AND u.apiKey = ? ORDER BY length(c.id) LIMIT 1
                    """), arguments: [id, AppKey.scoped(id, apiKey: apiKey), apiKey])
    }

    /// The key (``AppKey``) of the app's user `id`, or nil when the app has
    /// none: the server keeps an app's inspection routes to its own users.
    package func userKey(apiKey: String, id: String) -> String? {
        try? read { db in try userKey(db, id: id, apiKey: apiKey) }
    }

    /// The key of the user an access token was issued to, whatever its state
    /// (nil when unknown); for labelling connections, not for authentication.
    package func userId(ofAccessToken token: String) -> String? {
        try? read { db in
            try String.fetchOne(db, sql: "SELECT userId FROM token WHERE token = ? AND kind = 'access'", arguments: [token])
        }
    }
}

/// An app as its operator sees it (`chatbench apps list`): its key, how
/// many users and conversations it holds, and its settings. Never its secret.
package struct AppSummary: Sendable, Equatable {
    package let apiKey: String
    package let users: Int
    package let conversations: Int
    package let settings: AppSettings
}

extension Backend {
    /// Every app, in key order, with its counts and settings.
    package func apps() throws(WireError) -> [AppSummary] {
        try read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT a.apiKey, a.settings,
                      (SELECT COUNT(*) FROM user u WHERE u.apiKey = a.apiKey) AS users,
                      (SELECT COUNT(*) FROM conversation c JOIN user u ON u.id = c.ownerId WHERE u.apiKey = a.apiKey) AS conversations
                    FROM app a ORDER BY a.apiKey
                    """)
            return try rows.map { row in
                AppSummary(
                    apiKey: row["apiKey"], users: row["users"], conversations: row["conversations"],
                    settings: try Self.decodedSettings(row["settings"]))
            }
        }
    }
}
