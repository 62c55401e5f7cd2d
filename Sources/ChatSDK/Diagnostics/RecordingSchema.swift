package import GRDB

/// The recording database's schema, versioned with GRDB migrations
/// (table `grdb_migrations`). Documented in docs/recording-schema.md: keep
/// the two in step. A migration, once released, never changes: add one.
/// The workbench's recordings and the SDK's flight recorder (an app's
/// diagnostics file) share it: one store, read by the same commands.
package enum RecordingSchema {
    /// The newest migration this version knows.
    package static let current = "v12"
    /// `PRAGMA application_id` of a chatbench recording ("chbt"): a
    /// workbench session's file and an app's flight recording alike.
    package static let applicationID: Int32 = 0x6368_6274

    package static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: "PRAGMA application_id = \(applicationID)")
            try db.execute(
                sql: """
                    CREATE TABLE session (
                        id           INTEGER PRIMARY KEY AUTOINCREMENT,
                        uuid         TEXT NOT NULL UNIQUE,
                        name         TEXT,
                        created      DATETIME NOT NULL,
                        ended        DATETIME,
                        tool_version TEXT NOT NULL,
                        seed         INTEGER NOT NULL,
                        mode         TEXT NOT NULL,
                        server_url   TEXT,
                        kind         TEXT NOT NULL,
                        platform     TEXT NOT NULL
                    );
                    CREATE INDEX session_by_name ON session(name);
                    CREATE TABLE step (
                        session_id   INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,
                        number       INTEGER NOT NULL,
                        input        TEXT NOT NULL,
                        output       TEXT NOT NULL,
                        status       TEXT NOT NULL,
                        virtual_time INTEGER NOT NULL,
                        wall_time    DATETIME NOT NULL,
                        wall_us      INTEGER NOT NULL,
                        PRIMARY KEY (session_id, number)
                    );
                    CREATE TABLE event (
                        session_id   INTEGER NOT NULL,
                        step         INTEGER NOT NULL,
                        seq          INTEGER NOT NULL,
                        virtual_time INTEGER NOT NULL,
                        source       TEXT NOT NULL,
                        text         TEXT NOT NULL,
                        PRIMARY KEY (session_id, step, seq),
                        FOREIGN KEY (session_id, step) REFERENCES step(session_id, number) ON DELETE CASCADE
                    );
                    CREATE TABLE traffic (
                        session_id   INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,
                        seq          INTEGER NOT NULL,
                        step         INTEGER,
                        virtual_time INTEGER NOT NULL,
                        wall_time    DATETIME NOT NULL,
                        channel      TEXT NOT NULL,
                        direction    TEXT NOT NULL,
                        summary      TEXT NOT NULL,
                        body         BLOB,
                        PRIMARY KEY (session_id, seq)
                    );
                    CREATE TABLE bundle (
                        session_id   INTEGER NOT NULL,
                        exported     DATETIME NOT NULL,
                        exported_by  TEXT NOT NULL,
                        source       TEXT NOT NULL
                    );
                    """)
        }
        // The tape needs to know whose each entry is, and which answer
        // belongs to which request (TrafficEntry.deviceId, .exchange).
        migrator.registerMigration("v2") { db in
            try db.execute(
                sql: """
                    ALTER TABLE traffic ADD COLUMN device_id TEXT NOT NULL DEFAULT '';
                    ALTER TABLE traffic ADD COLUMN exchange INTEGER;
                    """)
        }
        // `bundle` belongs to bundle files only (v1 made it in every file):
        // an empty one goes; `exportBundle` makes it in the bundle it writes.
        migrator.registerMigration("v3") { db in
            if try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM bundle") == 0 {
                try db.execute(sql: "DROP TABLE bundle")
            }
        }
        // A step, its events and its traffic are written in one commit per
        // step: as WITHOUT ROWID tables, each row goes into one B-tree (its
        // primary key's) instead of a table and an index of its key, so a
        // commit writes fewer pages (issue 17). Rebuilt as SQLite documents
        // for changes ALTER TABLE cannot make; GRDB runs a migration with
        // foreign keys off and checks them before it commits.
        migrator.registerMigration("v4") { db in
            try db.execute(
                sql: """
                    CREATE TABLE step_v4 (
                        session_id   INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,
                        number       INTEGER NOT NULL,
                        input        TEXT NOT NULL,
                        output       TEXT NOT NULL,
                        status       TEXT NOT NULL,
                        virtual_time INTEGER NOT NULL,
                        wall_time    DATETIME NOT NULL,
                        wall_us      INTEGER NOT NULL,
                        PRIMARY KEY (session_id, number)
                    ) WITHOUT ROWID;
                    INSERT INTO step_v4 SELECT session_id, number, input, output, status, virtual_time, wall_time, wall_us FROM step;
                    DROP TABLE step;
                    ALTER TABLE step_v4 RENAME TO step;
                    CREATE TABLE event_v4 (
                        session_id   INTEGER NOT NULL,
                        step         INTEGER NOT NULL,
                        seq          INTEGER NOT NULL,
                        virtual_time INTEGER NOT NULL,
                        source       TEXT NOT NULL,
                        text         TEXT NOT NULL,
                        PRIMARY KEY (session_id, step, seq),
                        FOREIGN KEY (session_id, step) REFERENCES step(session_id, number) ON DELETE CASCADE
                    ) WITHOUT ROWID;
                    INSERT INTO event_v4 SELECT session_id, step, seq, virtual_time, source, text FROM event;
                    DROP TABLE event;
                    ALTER TABLE event_v4 RENAME TO event;
                    CREATE TABLE traffic_v4 (
                        session_id   INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,
                        seq          INTEGER NOT NULL,
                        step         INTEGER,
                        virtual_time INTEGER NOT NULL,
                        wall_time    DATETIME NOT NULL,
                        channel      TEXT NOT NULL,
                        direction    TEXT NOT NULL,
                        summary      TEXT NOT NULL,
                        body         BLOB,
                        device_id    TEXT NOT NULL DEFAULT '',
                        exchange     INTEGER,
                        PRIMARY KEY (session_id, seq)
                    ) WITHOUT ROWID;
                    INSERT INTO traffic_v4
                        SELECT session_id, seq, step, virtual_time, wall_time, channel, direction, summary, body, device_id, exchange
                        FROM traffic;
                    DROP TABLE traffic;
                    ALTER TABLE traffic_v4 RENAME TO traffic;
                    """)
        }
        // Where Ctrl-C stopped a step in the embedded world (how far its
        // world had run: batches of jobs and wake-ups), so that a replay
        // stops the step there instead of running it to its end (issue 30).
        migrator.registerMigration("v5") { db in
            try db.execute(sql: "ALTER TABLE step ADD COLUMN stopped_after_ticks INTEGER")
        }
        // A field recording's call as a value (``AppCall``, JSON), beside its
        // text for people in `input`, so that a replay or an export reads the
        // value instead of parsing the text back (issue 30). NULL for the
        // workbench's own steps and for calls recorded before v6.
        migrator.registerMigration("v6") { db in
            try db.execute(sql: "ALTER TABLE step ADD COLUMN call TEXT")
        }
        // The events a replay or an export reads (what a call returned or
        // threw, a message's state) as values (``AppEvent``, JSON), beside
        // their text (issue 30). NULL for other events, the workbench's
        // own, and those recorded before v7.
        migrator.registerMigration("v7") { db in
            try db.execute(sql: "ALTER TABLE event ADD COLUMN value TEXT")
        }
        // What each traffic row is, as its producer knew it
        // (``TrafficEntry/Kind``, JSON), beside its summary for people, so
        // that readers decide by the value instead of parsing the summary
        // back (issue 30). NULL on rows written before v8: those are typed
        // from their summaries by the one legacy reader
        // (TrafficEntry+LegacySummary.swift).
        migrator.registerMigration("v8") { db in
            try db.execute(sql: "ALTER TABLE traffic ADD COLUMN kind TEXT")
        }
        // What each of the workbench's events is, as its producer knew it
        // (``RecordedEvent/Kind``, JSON: a request and its answer, a
        // watcher's emission and whether fresh, a client's state change…),
        // beside its text for people, so that the timeline and the
        // sequence view draw by the value instead of parsing the text back
        // (issue 30). NULL on rows written before v9 and on a field
        // recording's (typed by `value`): those are typed by the one
        // legacy reader (RecordedEvent+LegacyText.swift).
        migrator.registerMigration("v9") { db in
            try db.execute(sql: "ALTER TABLE event ADD COLUMN kind TEXT")
        }
        // A field recording's rows on the device's monotonic clock (ms since
        // its session began, a clock that setting the date does not move),
        // beside `virtual_time`, the device's wall clock, which can jump
        // (NTP, the user): readers order and space a field recording by the
        // monotonic time (issue 27). NULL in the workbench's own sessions
        // (their clock is the virtual one, or a server's) and before v10.
        migrator.registerMigration("v10") { db in
            try db.execute(
                sql: """
                    ALTER TABLE step ADD COLUMN monotonic_time INTEGER;
                    ALTER TABLE event ADD COLUMN monotonic_time INTEGER;
                    ALTER TABLE traffic ADD COLUMN monotonic_time INTEGER;
                    """)
        }
        // Two facts kept as the values they were rather than read back from
        // text (issue 30): the random component a server session's
        // client-side ids carry (`session.id_tag`: `c-` + 8 hex digits + 8
        // seeded ones), so that `replay --tape` mints the same ids; NULL in
        // embedded sessions and field recordings, and in server sessions
        // recorded before v11 (read from their paths by the one legacy
        // reader). And what each styled part of a step's output is
        // (`step.styles`, JSON `[[from, to, "style"], …]`, UTF-8 offsets
        // into `output`), so that `sessions show` colours it as it was
        // printed; NULL when nothing was styled, and before v11.
        migrator.registerMigration("v11") { db in
            try db.execute(
                sql: """
                    ALTER TABLE session ADD COLUMN id_tag TEXT;
                    ALTER TABLE step ADD COLUMN styles TEXT;
                    """)
        }
        // Whose each traffic row is (``TrafficEntry/Origin``: `device`,
        // `network`, `other-side`), beside `device_id`, which keeps the
        // label for people (the device's id, `network`, `app-backend`), so
        // that readers decide by the value instead of by reserved device
        // ids that a field recording's app could choose for itself (issue
        // 30). NULL on rows written before v12: those are read by the one
        // legacy reader (TrafficEntry+LegacyOrigin.swift), not backfilled
        // here, like every column added for issue 30.
        migrator.registerMigration("v12") { db in
            try db.execute(sql: "ALTER TABLE traffic ADD COLUMN origin TEXT")
        }
        return migrator
    }

    /// The table that makes a file a bundle (see `RecordingStore.exportBundle`).
    package static let bundleTable = """
        CREATE TABLE bundle (
            session_id   INTEGER NOT NULL,
            exported     DATETIME NOT NULL,
            exported_by  TEXT NOT NULL,
            source       TEXT NOT NULL
        )
        """
}
