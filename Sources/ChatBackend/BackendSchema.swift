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
                t.column("kind", .text).notNull() // "access" | "refresh"
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
        // Identity (SPEC A5–A14, S1): sessions, devices and their push
        // subscriptions, the push log, app-issued credentials.
        migrator.registerMigration("v2-identity") { db in
            try db.alter(table: "user") { t in
                t.add(column: "name", .text) // the JWT's `name`
                t.add(column: "email", .text) // the JWT's `email`
                t.add(column: "mergedInto", .text) // set when an anonymous user was merged (A8)
            }
            // Token kinds now also include "appAccess" (app-issued access
            // token: never expires, revocable) and "session" (app-issued
            // session token: expires). Access and refresh tokens belong to
            // a session; `credential` is the app-issued token they came from.
            try db.alter(table: "token") { t in
                t.add(column: "sessionId", .text)
                t.add(column: "credential", .text)
            }
            // One row per sign-in. Open while `closedAt` is NULL and it holds a
            // live refresh token.
            try db.create(table: "session") { t in
                t.primaryKey("id", .text)
                t.column("userId", .text).notNull().indexed()
                t.column("apiKey", .text).notNull()
                t.column("deviceId", .text) // NULL until the first request of tokens minted by `issueTokens`
                t.column("via", .text).notNull() // WireUser.AuthenticationType
                t.column("credential", .text)
                t.column("openedAt", .integer).notNull()
                t.column("closedAt", .integer)
            }
            // Push subscriptions: a device subscribed to a user's pushes.
            try db.create(table: "device") { t in
                t.column("apiKey", .text).notNull()
                t.column("deviceId", .text).notNull()
                t.column("userId", .text).notNull().indexed()
                t.column("pushToken", .text)
                t.column("subscribedAt", .integer).notNull()
                t.primaryKey(["apiKey", "deviceId", "userId"])
            }
            // The pushes the backend would send, one row per device.
            try db.create(table: "push") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("userId", .text).notNull().indexed()
                t.column("deviceId", .text).notNull()
                t.column("conversationId", .text).notNull()
                t.column("messageId", .text).notNull()
                t.column("preview", .text).notNull()
                t.column("sentAt", .integer).notNull()
            }
        }
        // Conversation ids are chosen by clients and global across users. A
        // client that asks for an id another user holds gets one the server
        // mints; `requestedId` keeps the id it asked for, so that a retry of
        // the same request finds the same conversation (issue 13, item 10).
        migrator.registerMigration("v3-requested-id") { db in
            try db.alter(table: "conversation") { t in
                t.add(column: "requestedId", .text)
            }
            try db.create(index: "conversation_owner_requested", on: "conversation", columns: ["ownerId", "requestedId"])
        }
        // A `messageCreated` event names its message (conversation and seq)
        // instead of holding a JSON copy of it: the message table already
        // holds it, and is never updated. `kind` is then `messageCreated`;
        // rows written before keep their JSON (issue 17: the copies were
        // a third of the embedded backend's memory).
        migrator.registerMigration("v4-event-message-ref") { db in
            try db.alter(table: "event") { t in
                t.add(column: "messageConversationId", .text)
                t.add(column: "messageSeq", .integer)
            }
        }
        // The event log is kept in the tree of its primary key (userId,
        // userSeq) alone: as a rowid table, every event was stored twice,
        // in its row and again in the primary key's index (issue 17: two
        // events are logged with every message). Same columns, same rows.
        migrator.registerMigration("v5-event-without-rowid") { db in
            try db.execute(
                sql: """
                    CREATE TABLE event_v5 (
                        userId TEXT NOT NULL, userSeq INTEGER NOT NULL, kind TEXT NOT NULL, createdAt INTEGER NOT NULL,
                        messageConversationId TEXT, messageSeq INTEGER, PRIMARY KEY (userId, userSeq)
                    ) WITHOUT ROWID
                    """)
            try db.execute(
                sql: """
                    INSERT INTO event_v5 (userId, userSeq, kind, createdAt, messageConversationId, messageSeq)
                    SELECT userId, userSeq, kind, createdAt, messageConversationId, messageSeq FROM event
                    """)
            try db.drop(table: "event")
            try db.rename(table: "event_v5", to: "event")
        }
        // A push names the token it went to (C4): the device's push token
        // when it was sent, NULL for a device that registered none.
        migrator.registerMigration("v6-push-token") { db in
            try db.alter(table: "push") { t in
                t.add(column: "pushToken", .text)
            }
        }
        // Attachments carry bytes (A14, D6): what a client uploaded, kept in
        // the backend's one store. `conversationId` is set by the first
        // message that names it (who may read it follows from there);
        // `purpose` is "message" or "profile" (a profile image, readable by
        // anyone of the app).
        migrator.registerMigration("v7-attachments-with-bytes") { db in
            try db.create(table: "attachment") { t in
                t.primaryKey("id", .text)
                t.column("apiKey", .text).notNull()
                t.column("uploaderId", .text).notNull().indexed().references("user", onDelete: .cascade)
                t.column("conversationId", .text).indexed().references("conversation", onDelete: .cascade)
                t.column("purpose", .text).notNull()
                t.column("mimeType", .text).notNull()
                t.column("size", .integer).notNull()
                t.column("sha256", .text).notNull()
                t.column("data", .blob).notNull()
                t.column("createdAt", .integer).notNull()
            }
        }
        // Uploads no message names are dropped after a day (D6): this
        // index finds them without reading any bytes.
        migrator.registerMigration("v8-unnamed-attachments-expire") { db in
            try db.execute(
                sql: "CREATE INDEX attachment_unnamed ON attachment(createdAt) WHERE purpose = 'message' AND conversationId IS NULL")
        }
        return migrator
    }
}
