import GRDB

/// The backend's database schema, as versioned migrations.
///
/// Times are stored as INTEGER milliseconds since the Unix epoch (`Instant`);
/// structured values (settings, message authors and contents, events) as
/// JSON text with sorted keys, so that the database content is deterministic.
enum BackendSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "app") { t in
                t.primaryKey("apiKey", .text)
                t.column("jwtSecret", .text).notNull()
                t.column("settings", .text).notNull()
            }
            try db.create(table: "user") { t in
                t.primaryKey("id", .text)
                t.column("apiKey", .text).notNull().references("app", onDelete: .cascade)
                t.column("isAnonymous", .boolean).notNull().defaults(to: false)
                t.column("nickname", .text)
                t.column("profileURL", .text)
                t.column("attributes", .text).notNull().defaults(to: "{}")
                t.column("createdAt", .integer).notNull()
            }
            // Access and refresh tokens. A revoked token keeps its row (with
            // `revokedAt`) so that the workbench can show closed sessions.
            try db.create(table: "token") { t in
                t.primaryKey("token", .text)
                t.column("kind", .text).notNull()  // "access" | "refresh"
                t.column("userId", .text).notNull().indexed().references("user", onDelete: .cascade)
                t.column("apiKey", .text).notNull()
                t.column("issuedAt", .integer).notNull()
                t.column("expiresAt", .integer).notNull()
                t.column("revokedAt", .integer)
            }
            try db.create(table: "conversation") { t in
                t.primaryKey("id", .text)
                t.column("ownerId", .text).notNull().references("user", onDelete: .cascade)
                t.column("title", .text)
                t.column("createdAt", .integer).notNull()
                t.column("updatedAt", .integer).notNull()
                t.column("lastSeq", .integer).notNull().defaults(to: 0)
                t.column("lastMessagePreview", .text)
                t.column("providerTypingUntil", .integer)
                t.column("providerReadSeq", .integer).notNull().defaults(to: 0)
            }
            try db.create(index: "conversation_owner_updated", on: "conversation", columns: ["ownerId", "updatedAt", "id"])
            try db.create(table: "message") { t in
                t.column("conversationId", .text).notNull().references("conversation", onDelete: .cascade)
                t.column("id", .text).notNull()
                t.column("seq", .integer).notNull()
                t.column("author", .text).notNull()
                t.column("content", .text).notNull()
                t.column("replyTo", .text)
                t.column("createdAt", .integer).notNull()
                t.primaryKey(["conversationId", "id"])
                t.uniqueKey(["conversationId", "seq"])
            }
            // Realtime events, per user, numbered from 1 without gaps, kept so
            // that a reconnecting client can catch up (D8).
            try db.create(table: "event") { t in
                t.column("userId", .text).notNull()
                t.column("userSeq", .integer).notNull()
                t.column("kind", .text).notNull()
                t.column("createdAt", .integer).notNull()
                t.primaryKey(["userId", "userSeq"])
            }
        }
        return migrator
    }
}
