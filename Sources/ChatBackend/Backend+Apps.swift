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

extension Backend {
    /// The API keys of the apps whose settings let anyone with the key sign
    /// in as any user by id alone (`allowUserIdOnly`, SPEC A10), in key
    /// order: `serve` names them at start (issue 26).
    package func apiKeysAllowingUserIdOnly() -> [String] {
        let apps = (try? read { db in try Row.fetchAll(db, sql: "SELECT apiKey, settings FROM app ORDER BY apiKey") }) ?? []
        return apps.compactMap { row in
            guard let settings = try? Self.decodedSettings(row["settings"]), settings.allowUserIdOnly else { return nil }
            return row["apiKey"]
        }
    }
}
