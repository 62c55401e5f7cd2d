import ChatCore
import GRDB

extension Backend {
    /// Every user the backend knows, in creation order (then by id).
    package func users() -> [BackendUser] {
        (try? read { db in
            try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM user ORDER BY createdAt, id")).map { row in
                BackendUser(
                    id: row["id"],
                    apiKey: row["apiKey"],
                    isAnonymous: row["isAnonymous"],
                    nickname: row["nickname"],
                    profileURL: row["profileURL"],
                    attributes: (try? Self.decode([String: String].self, from: row["attributes"])) ?? [:],
                    createdAt: Instant(milliseconds: row["createdAt"]),
                    name: row["name"],
                    email: row["email"],
                    mergedInto: row["mergedInto"])
            }
        }) ?? []
    }
}
