import ChatCore
import GRDB

extension Backend {
    /// Every user the backend knows, of every app, in creation order (then
    /// by key).
    package func users() -> [BackendUser] {
        (try? read { db in
            try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM user ORDER BY createdAt, id")).map { row in
                BackendUser(
                    id: AppKey.visible(row["id"] as String),
                    key: row["id"],
                    apiKey: row["apiKey"],
                    isAnonymous: row["isAnonymous"],
                    nickname: row["nickname"],
                    profileURL: row["profileURL"],
                    attributes: (try? Self.decode([String: String].self, from: row["attributes"])) ?? [:],
                    createdAt: Instant(milliseconds: row["createdAt"]),
                    name: row["name"],
                    email: row["email"],
                    mergedInto: AppKey.visible(row["mergedInto"] as String?))
            }
        }) ?? []
    }
}
