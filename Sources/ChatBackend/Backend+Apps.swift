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
