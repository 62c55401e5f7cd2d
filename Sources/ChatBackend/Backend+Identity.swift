import ChatCore
import Foundation
import GRDB

/// Identity (SPEC A5–A14, S1): sign-in paths, sessions, devices and push
/// subscriptions, app-issued credentials, logout, the user's profile.
extension Backend {
    // MARK: App-issued credentials (the app's backend, A10)

    /// The app's backend issuing an access token for a user (A10): it never
    /// expires but can be revoked (``revokeCredential(apiKey:token:)``,
    /// ``revokeTokens(userId:)``). Creates the user if unknown.
    ///
    /// Throws `invalidApiKey` or `badRequest` (bad user id). User ids are
    /// per app (``AppKey``).
    package func issueAccessToken(apiKey: String, userId: String) throws(WireError) -> IssuedCredential {
        let userId = Identifier.normalized(userId)
        try Self.validateIdentifier(userId, what: "user id")
        let now = environment.now()
        return try write { db in
            _ = try Self.appSettings(db, apiKey: apiKey)
            let key = try ensureUser(db, id: userId, apiKey: apiKey, isAnonymous: false)
            let token = try insertToken(
                db, prefix: "ak-", kind: "appAccess", userId: key, apiKey: apiKey, now: now,
                expiresAt: Instant(milliseconds: Int64.max / 2))
            return IssuedCredential(token: token, expiresAt: nil)
        }
    }

    /// The app's backend issuing a session token for a user (A10), valid for
    /// `ttl` or else the app's `sessionTokenTTL`. Creates the user if unknown.
    /// Throws as ``issueAccessToken(apiKey:userId:)``.
    package func issueSessionToken(apiKey: String, userId: String, ttl: Duration? = nil) throws(WireError) -> IssuedCredential {
        let userId = Identifier.normalized(userId)
        try Self.validateIdentifier(userId, what: "user id")
        let now = environment.now()
        return try write { db in
            let settings = try Self.appSettings(db, apiKey: apiKey)
            let key = try ensureUser(db, id: userId, apiKey: apiKey, isAnonymous: false)
            let expiresAt = now.adding(ttl ?? settings.sessionTokenTTL)
            let token = try insertToken(db, prefix: "st-", kind: "session", userId: key, apiKey: apiKey, now: now, expiresAt: expiresAt)
            return IssuedCredential(token: token, expiresAt: expiresAt)
        }
    }

    /// Revokes one app-issued access or session token, and with it every
    /// session opened with it (their tokens and realtime subscriptions).
    /// Throws `invalidAccessToken` if the app issued no such token.
    package func revokeCredential(apiKey: String, token: String) throws(WireError) {
        let now = environment.now().milliseconds
        let sessionIds = try write { db -> [String] in
            guard
                try Bool.fetchOne(
                    db,
                    sql: """
                        SELECT 1 FROM token WHERE token = ? AND apiKey = ? AND kind IN ('appAccess', 'session')
                        """, arguments: [token, apiKey]) == true
            else { throw WireError(.invalidAccessToken, "The app issued no such token") }
            let ids = try String.fetchAll(db, sql: "SELECT id FROM session WHERE credential = ? AND closedAt IS NULL", arguments: [token])
            try db.execute(
                sql: "UPDATE token SET revokedAt = ? WHERE (token = ? OR credential = ?) AND revokedAt IS NULL",
                arguments: [now, token, token])
            try db.execute(sql: "UPDATE session SET closedAt = ? WHERE credential = ? AND closedAt IS NULL", arguments: [now, token])
            return ids
        }
        let closed = Set(sessionIds)
        closeSubscriptions(reason: WireError(.invalidToken, "The session's credential was revoked")) { subscription, _ in
            subscription.sessionId.map(closed.contains) ?? false
        }
    }

    // MARK: Sign-in requests

    func signIn(_ envelope: WireEnvelope) throws(WireError) -> WireResponse {
        try Self.validateIdentifier(envelope.deviceId, what: "device id")
        let apiKey = envelope.apiKey
        let deviceId = envelope.deviceId
        switch envelope.request {
        case .loginJWT(let jwt):
            return try loginJWT(envelope, jwt: jwt)
        case .loginAnonymous:
            return try write { db in
                let settings = try Self.appSettings(db, apiKey: apiKey)
                // An app that requires access tokens signs no one in without one.
                if settings.requireAccessToken { throw WireError(.accessTokenRequired) }
                var id = environment.makeID("anon-")
                var attempts = 0
                while try Bool.fetchOne(db, sql: "SELECT 1 FROM user WHERE id = ?", arguments: [id]) == true {
                    attempts += 1
                    guard attempts < 16 else { throw WireError(.internalError, "Could not generate a unique user id") }
                    id = environment.makeID("anon-")
                }
                try ensureUser(db, id: id, apiKey: apiKey, isAnonymous: true)
                let tokens = try openSession(db, userId: id, apiKey: apiKey, settings: settings, via: .anonymous, deviceId: deviceId)
                return .session(tokens: tokens, user: try wireUser(db, id: id, via: .anonymous), mergedConversationIds: [])
            }
        case .connectUserId(let userId, let signature):
            try Self.validateIdentifier(userId, what: "user id")
            let vouched = try checkSignature(signature, userId: userId, apiKey: apiKey)
            return try write { db in
                let settings = try Self.appSettings(db, apiKey: apiKey)
                if settings.requireAccessToken { throw WireError(.accessTokenRequired) }
                // A user id the app's backend signed is vouched for (A12).
                guard settings.allowUserIdOnly || vouched else { throw WireError(.userIdOnlyNotAllowed) }
                let key = try ensureUser(db, id: userId, apiKey: apiKey, isAnonymous: false)
                let tokens = try openSession(db, userId: key, apiKey: apiKey, settings: settings, via: .userId, deviceId: deviceId)
                return .session(tokens: tokens, user: try wireUser(db, id: key, via: .userId), mergedConversationIds: [])
            }
        case .connectAccessToken(let userId, let accessToken, let signature):
            try Self.validateIdentifier(userId, what: "user id")
            _ = try checkSignature(signature, userId: userId, apiKey: apiKey)
            return try connect(apiKey: apiKey, deviceId: deviceId, userId: userId, token: accessToken, kind: "appAccess")
        case .connectSessionToken(let userId, let sessionToken, let signature):
            try Self.validateIdentifier(userId, what: "user id")
            _ = try checkSignature(signature, userId: userId, apiKey: apiKey)
            return try connect(apiKey: apiKey, deviceId: deviceId, userId: userId, token: sessionToken, kind: "session")
        default:
            throw WireError(.internalError, "\(envelope.request.name) is not a sign-in request")
        }
    }

    /// Whether a user signature was given and is right (A12): false when
    /// none was given; `invalidSignature` when one was given and is not
    /// `userId`'s under the app's secret.
    private func checkSignature(_ signature: String?, userId: String, apiKey: String) throws(WireError) -> Bool {
        guard let signature else { return false }
        guard UserSignature.isValid(signature, userId: userId, secret: try jwtSecret(apiKey: apiKey)) else {
            throw WireError(.invalidSignature)
        }
        return true
    }

    /// The user signature the app's backend would give for `userId` (A12),
    /// for the workbench, which plays the app's backend.
    package func userSignature(apiKey: String, userId: String) throws(WireError) -> String {
        UserSignature.sign(userId: userId, secret: try jwtSecret(apiKey: apiKey))
    }

    /// Connect with an app-issued credential of `kind` "appAccess" or "session".
    private func connect(apiKey: String, deviceId: String, userId: String, token: String, kind: String) throws(WireError) -> WireResponse {
        try Self.validateIdentifier(userId, what: "user id")
        let invalid: WireError.Code = kind == "session" ? .invalidSessionToken : .invalidAccessToken
        let via: WireUser.AuthenticationType = kind == "session" ? .session : .access
        let now = environment.now()
        return try write { db in
            let settings = try Self.appSettings(db, apiKey: apiKey)
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT expiresAt, revokedAt FROM token WHERE token = ? AND kind = ? AND apiKey = ? AND userId IN (?, ?)
                        """, arguments: [token, kind, apiKey, userId, AppKey.scoped(userId, apiKey: apiKey)]),
                row["revokedAt"] as Int64? == nil
            else { throw WireError(invalid) }
            let expiresAt = Instant(milliseconds: row["expiresAt"])
            guard now < expiresAt else { throw WireError(.expiredSessionToken) }
            let key = try ensureUser(db, id: userId, apiKey: apiKey, isAnonymous: false)
            let tokens = try openSession(
                db, userId: key, apiKey: apiKey, settings: settings, via: via, deviceId: deviceId,
                credential: token, credentialExpiry: kind == "session" ? expiresAt : nil)
            return .session(tokens: tokens, user: try wireUser(db, id: key, via: via), mergedConversationIds: [])
        }
    }

    private func loginJWT(_ envelope: WireEnvelope, jwt: String) throws(WireError) -> WireResponse {
        let apiKey = envelope.apiKey
        let secret = try jwtSecret(apiKey: apiKey)
        let now = environment.now()
        let verified = try AppJWT.verify(jwt, secret: secret, now: now)
        let (response, userId, anonymousId) = try write { db -> (WireResponse, String, String?) in
            let settings = try Self.appSettings(db, apiKey: apiKey)
            let userId = try ensureUser(db, id: verified.externalId, apiKey: apiKey, isAnonymous: false)
            // A JWT names a known identity: the user is not anonymous (any more).
            try db.execute(
                sql: "UPDATE user SET isAnonymous = 0, name = COALESCE(?, name), email = COALESCE(?, email) WHERE id = ?",
                arguments: [verified.name, verified.email, userId])
            var merged: [String] = []
            let anonymousId = try anonymousCaller(db, apiKey: apiKey, accessToken: envelope.accessToken).flatMap {
                $0.isSameIdentifier(as: userId) ? nil : $0
            }
            if let anonymousId {
                merged = try merge(db, anonymousId: anonymousId, into: userId, now: now)
            }
            // The session never outlives the JWT (A6): its tokens expire at
            // the JWT's `exp` at the latest, refresh token included.
            let tokens = try openSession(
                db, userId: userId, apiKey: apiKey, settings: settings, via: .jwt, deviceId: envelope.deviceId,
                credentialExpiry: verified.expiresAt)
            let user = try wireUser(db, id: userId, via: .jwt)
            return (.session(tokens: tokens, user: user, mergedConversationIds: merged), userId, anonymousId)
        }
        if let anonymousId {
            deliverEvents(userId: userId)
            closeSubscriptions(reason: WireError(.invalidToken, "The anonymous user was merged into a signed-in user")) { subscription, _ in
                subscription.userId.isSameIdentifier(as: anonymousId)
            }
        }
        return response
    }

    /// The anonymous user whose access token this is (valid or merely
    /// expired, not revoked, of this app, not already merged), or nil.
    private func anonymousCaller(_ db: Database, apiKey: String, accessToken: String?) throws -> String? {
        guard let accessToken else { return nil }
        return try String.fetchOne(
            db,
            sql: """
                SELECT u.id FROM token t JOIN user u ON u.id = t.userId
                WHERE t.token = ? AND t.kind = 'access' AND t.revokedAt IS NULL AND t.apiKey = ?
                  AND u.isAnonymous = 1 AND u.mergedInto IS NULL
                """, arguments: [accessToken, apiKey])
    }

    /// Moves an anonymous user's conversations to `targetId` (A8), tells the
    /// target (`conversationUpdated` for each) and retires the anonymous
    /// user. Returns the moved conversations' ids, most recent first.
    private func merge(_ db: Database, anonymousId: String, into targetId: String, now: Instant) throws -> [String] {
        let rows = try Row.fetchAll(
            db, sql: "SELECT * FROM conversation WHERE ownerId = ? ORDER BY updatedAt DESC, id ASC",
            arguments: [anonymousId])
        try db.execute(sql: "UPDATE conversation SET ownerId = ? WHERE ownerId = ?", arguments: [targetId, anonymousId])
        for row in rows {
            try appendEvent(db, userId: targetId, kind: .conversationUpdated(Self.conversation(from: row, now: now)), now: now)
        }
        try db.execute(sql: "UPDATE user SET mergedInto = ? WHERE id = ?", arguments: [targetId, anonymousId])
        try db.execute(
            sql: "UPDATE token SET revokedAt = ? WHERE userId = ? AND revokedAt IS NULL", arguments: [now.milliseconds, anonymousId])
        try db.execute(
            sql: "UPDATE session SET closedAt = ? WHERE userId = ? AND closedAt IS NULL", arguments: [now.milliseconds, anonymousId])
        try db.execute(sql: "DELETE FROM device WHERE userId = ?", arguments: [anonymousId])
        return rows.map { AppKey.visible($0["id"] as String) }
    }

    /// Opens a session for a sign-in: a session row, the device's push
    /// subscription (when the device is known), and a token pair.
    func openSession(
        _ db: Database, userId: String, apiKey: String, settings: AppSettings, via: WireUser.AuthenticationType,
        deviceId: String?, credential: String? = nil, credentialExpiry: Instant? = nil
    ) throws -> TokenPair {
        let now = environment.now()
        // Session ids count sessions rather than drawing from `makeID`, so
        // that opening sessions does not shift the world's random sequence.
        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM session") ?? 0
        let sessionId = "ses-\(count + 1)"
        try db.execute(
            sql: """
                INSERT INTO session (id, userId, apiKey, deviceId, via, credential, openedAt) VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [sessionId, userId, apiKey, deviceId, via.rawValue, credential, now.milliseconds])
        if let deviceId { try subscribeDevice(db, apiKey: apiKey, deviceId: deviceId, userId: userId, now: now) }
        return try mintPair(
            db, userId: userId, apiKey: apiKey, settings: settings, sessionId: sessionId,
            credential: credential, credentialExpiry: credentialExpiry)
    }

    /// Binds a session that has no device yet to `deviceId` and subscribes it.
    func bindDevice(_ db: Database, sessionId: String, deviceId: String, now: Instant) throws {
        guard Self.isValidIdentifier(deviceId),
            let row = try Row.fetchOne(
                db, sql: "SELECT userId, apiKey, deviceId, closedAt FROM session WHERE id = ?", arguments: [sessionId]),
            row["deviceId"] as String? == nil, row["closedAt"] as Int64? == nil
        else { return }
        try db.execute(sql: "UPDATE session SET deviceId = ? WHERE id = ?", arguments: [deviceId, sessionId])
        try subscribeDevice(db, apiKey: row["apiKey"], deviceId: deviceId, userId: row["userId"], now: now)
    }

    private func subscribeDevice(_ db: Database, apiKey: String, deviceId: String, userId: String, now: Instant) throws {
        try db.execute(
            sql: """
                INSERT OR IGNORE INTO device (apiKey, deviceId, userId, subscribedAt) VALUES (?, ?, ?, ?)
                """, arguments: [apiKey, deviceId, userId, now.milliseconds])
    }

    // MARK: Logout and devices

    /// Logout (A9); see ``WireRequest/logout``.
    func logout(apiKey: String, accessToken: String?, deviceId: String) throws(WireError) {
        let now = environment.now().milliseconds
        let closed = try write { db -> String? in
            _ = try Self.appSettings(db, apiKey: apiKey)
            guard let accessToken,
                let row = try Row.fetchOne(
                    db, sql: "SELECT userId, sessionId FROM token WHERE token = ? AND kind = 'access' AND apiKey = ?",
                    arguments: [accessToken, apiKey])
            else { throw WireError(.userNotAuthorized, "No user is signed in with this access token") }
            let userId: String = row["userId"]
            try db.execute(
                sql: "DELETE FROM device WHERE apiKey = ? AND deviceId = ? AND userId = ?", arguments: [apiKey, deviceId, userId])
            guard let sessionId = row["sessionId"] as String? else {
                try db.execute(sql: "UPDATE token SET revokedAt = ? WHERE token = ? AND revokedAt IS NULL", arguments: [now, accessToken])
                return nil
            }
            try db.execute(sql: "UPDATE token SET revokedAt = ? WHERE sessionId = ? AND revokedAt IS NULL", arguments: [now, sessionId])
            try db.execute(sql: "UPDATE session SET closedAt = ? WHERE id = ? AND closedAt IS NULL", arguments: [now, sessionId])
            // A session token the session was opened with ends with it: it
            // would otherwise open new sessions after the user logged out.
            try db.execute(
                sql: """
                    UPDATE token SET revokedAt = ? WHERE kind = 'session' AND revokedAt IS NULL
                    AND token = (SELECT credential FROM session WHERE id = ?)
                    """, arguments: [now, sessionId])
            return sessionId
        }
        if let closed {
            closeSubscriptions(reason: WireError(.invalidToken, "The session was logged out")) { subscription, _ in
                subscription.sessionId == closed
            }
        }
    }

    func registerDevice(_ caller: Caller, deviceId: String, pushToken: String) throws(WireError) {
        try Self.validateIdentifier(deviceId, what: "device id")
        guard !pushToken.isEmpty, pushToken.unicodeScalars.count <= 4096 else {
            throw WireError(.badRequest, "The push token must be 1 to 4096 characters long")
        }
        let now = environment.now()
        try write { db in
            try subscribeDevice(db, apiKey: caller.apiKey, deviceId: deviceId, userId: caller.userId, now: now)
            try db.execute(
                sql: "UPDATE device SET pushToken = ? WHERE apiKey = ? AND deviceId = ? AND userId = ?",
                arguments: [pushToken, caller.apiKey, deviceId, caller.userId])
        }
    }

    func unregisterDevice(_ caller: Caller, deviceId: String) throws(WireError) {
        try write { db in
            try db.execute(
                sql: "DELETE FROM device WHERE apiKey = ? AND deviceId = ? AND userId = ?",
                arguments: [caller.apiKey, deviceId, caller.userId])
        }
    }

    // MARK: The user's profile

    func currentUser(_ caller: Caller) throws(WireError) -> WireUser {
        try read { db in try wireUser(db, id: caller.userId, via: caller.via) }
    }

    /// updateUser (A13, A14); see ``WireRequest/updateUser(nickname:profileURL:attributes:replaceAttributes:)``.
    func updateUser(
        _ caller: Caller, nickname: String?, profileURL: String?, attributes: [String: String]?, replaceAttributes: Bool = false
    ) throws(WireError) -> WireUser {
        let attributes = replaceAttributes ? attributes ?? [:] : attributes
        if let nickname {
            guard nickname.unicodeScalars.count <= 256 else { throw WireError(.badRequest, "The nickname is longer than 256 characters") }
            guard !nickname.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw WireError(.badRequest, "The nickname contains control characters")
            }
        }
        if let profileURL, !profileURL.isEmpty {
            guard profileURL.unicodeScalars.count <= 2048 else {
                throw WireError(.badRequest, "The profile URL is longer than 2048 characters")
            }
            // docs/openapi.json's pattern for profileURL, so that the server
            // takes every URL the document admits and no other (issue 26).
            let pattern =
                #/[Hh][Tt][Tt][Pp][Ss]?://[A-Za-z0-9]([A-Za-z0-9.\-]*[A-Za-z0-9])?(:[0-9]{1,4})?(/[A-Za-z0-9._~!$&'()*+,;=:@/\-]*)?(\?[A-Za-z0-9._~!$&'()*+,;=:@/?\-]*)?/#
            guard profileURL.wholeMatch(of: pattern) != nil, let url = URL(string: profileURL), url.host != nil else {
                throw WireError(
                    .badRequest, "The profile URL must be an http or https URL: a host, then an optional port, path and query")
            }
        }
        if let attributes {
            guard attributes.count <= 100 else { throw WireError(.badRequest, "At most 100 attributes are accepted") }
            for (key, value) in attributes {
                try Self.validateIdentifier(key, what: "attribute name")
                guard key.unicodeScalars.count <= 128 else {
                    throw WireError(.badRequest, "The attribute name is longer than 128 characters")
                }
                guard value.unicodeScalars.count <= 1024 else {
                    throw WireError(.badRequest, "The value of attribute \(key.debugDescription) is longer than 1024 characters")
                }
            }
        }
        return try write { db in
            if let nickname {
                try db.execute(
                    sql: "UPDATE user SET nickname = ? WHERE id = ?", arguments: [nickname.isEmpty ? nil : nickname, caller.userId])
            }
            if let profileURL {
                try db.execute(
                    sql: "UPDATE user SET profileURL = ? WHERE id = ?", arguments: [profileURL.isEmpty ? nil : profileURL, caller.userId])
            }
            if let attributes {
                let json = try String.fetchOne(db, sql: "SELECT attributes FROM user WHERE id = ?", arguments: [caller.userId]) ?? "{}"
                var current = replaceAttributes ? [:] : (try? Self.decode([String: String].self, from: json)) ?? [:]
                for (key, value) in attributes { current[key] = value.isEmpty ? nil : value }
                guard current.count <= 100 else { throw WireError(.badRequest, "A user has at most 100 attributes") }
                try db.execute(sql: "UPDATE user SET attributes = ? WHERE id = ?", arguments: [try Self.encode(current), caller.userId])
            }
            return try wireUser(db, id: caller.userId, via: caller.via)
        }
    }

    /// uploadProfileImage (A14); see ``WireRequest/uploadProfileImage(mimeType:size:attachmentId:)``.
    func uploadProfileImage(_ caller: Caller, mimeType: String, size: Int64, attachmentId: String?) throws(WireError) -> WireUser {
        let type = mimeType.lowercased()
        guard WireLimits.profileImageMimeTypes.contains(type) else {
            throw WireError(
                .unsupportedMediaType,
                "A profile image must be \(WireLimits.profileImageMimeTypes.joined(separator: " or ")), not \(String(mimeType.prefix(100)).debugDescription)"
            )
        }
        guard size > 0 else { throw WireError(.badRequest, "The profile image is empty") }
        guard size <= WireLimits.maxProfileImageBytes else {
            throw WireError(
                .attachmentTooLarge, "The profile image is \(size) bytes; the server accepts at most \(WireLimits.maxProfileImageBytes)")
        }
        if let attachmentId { try Self.validateIdentifier(attachmentId, what: "attachment id") }
        let url =
            attachmentId.map(HTTPWire.profileImagePath(of:))
            ?? "https://media.chatbench.invalid/profile/\(environment.makeID("img-")).\(type == "image/png" ? "png" : "jpg")"
        return try write { db in
            if let attachmentId {
                try makeProfileImage(db, attachmentId: attachmentId, mimeType: type, size: size, caller: caller)
            }
            try db.execute(sql: "UPDATE user SET profileURL = ? WHERE id = ?", arguments: [url, caller.userId])
            return try wireUser(db, id: caller.userId, via: caller.via)
        }
    }

    /// The wire value of the user with key `id` (``AppKey``): their app's id for them.
    func wireUser(_ db: Database, id: String, via: WireUser.AuthenticationType) throws -> WireUser {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM user WHERE id = ?", arguments: [id]) else { throw WireError(.unknownUser) }
        return WireUser(
            id: AppKey.visible(id), isAnonymous: row["isAnonymous"], authenticationType: via, name: row["name"], email: row["email"],
            nickname: row["nickname"], profileURL: row["profileURL"],
            attributes: (try? Self.decode([String: String].self, from: row["attributes"])) ?? [:])
    }

    // MARK: Inspection (the workbench's `server sessions|pushes|users`)

    /// Open sessions of a user, oldest first: not logged out, not revoked,
    /// and holding a refresh token that is still valid.
    package func sessions(userId: String) -> [BackendSession] {
        let now = environment.now().milliseconds
        return
            (try? read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT s.* FROM session s
                        WHERE s.userId = ? AND s.closedAt IS NULL AND EXISTS (
                            SELECT 1 FROM token t WHERE t.sessionId = s.id AND t.kind = 'refresh' AND t.revokedAt IS NULL AND t.expiresAt > ?)
                        ORDER BY s.openedAt, s.rowid
                        """, arguments: [userId, now]
                ).map { row in
                    BackendSession(
                        id: row["id"], userId: row["userId"], deviceId: row["deviceId"],
                        authenticationType: WireUser.AuthenticationType(rawValue: row["via"]) ?? .tokens,
                        openedAt: Instant(milliseconds: row["openedAt"]))
                }
            }) ?? []
    }

    /// The devices subscribed to a user's pushes, by device id.
    package func pushSubscriptions(userId: String) -> [BackendDevice] {
        (try? read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM device WHERE userId = ? ORDER BY deviceId", arguments: [userId]).map { row in
                BackendDevice(
                    deviceId: row["deviceId"], userId: row["userId"], pushToken: row["pushToken"],
                    subscribedAt: Instant(milliseconds: row["subscribedAt"]))
            }
        }) ?? []
    }

    /// The pushes sent for a user's messages, oldest first.
    package func pushes(userId: String) -> [BackendPush] {
        (try? read { db in try Self.pushes(db, sql: "SELECT * FROM push WHERE userId = ? ORDER BY id", arguments: [userId]) }) ?? []
    }

    /// Every push sent, oldest first.
    package func pushLog() -> [BackendPush] {
        (try? read { db in try Self.pushes(db, sql: "SELECT * FROM push ORDER BY id", arguments: []) }) ?? []
    }

    private static func pushes(_ db: Database, sql: String, arguments: StatementArguments) throws -> [BackendPush] {
        try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
            BackendPush(
                userId: row["userId"], deviceId: row["deviceId"], pushToken: row["pushToken"], conversationId: row["conversationId"],
                messageId: row["messageId"], preview: row["preview"], sentAt: Instant(milliseconds: row["sentAt"]))
        }
    }

    /// Records one push per subscribed device of the conversation's owner
    /// for a message someone else wrote (a provider, the system): a user is
    /// not notified of their own messages. Called by ``appendEvent``.
    func logPushes(_ db: Database, userId: String, message: WireMessage, now: Instant) throws {
        if case .user(let author) = message.author, author.isSameIdentifier(as: AppKey.visible(userId)) { return }
        let devices = try Row.fetchAll(
            db, sql: "SELECT deviceId, pushToken FROM device WHERE userId = ? ORDER BY deviceId", arguments: [userId])
        for device in devices {
            try db.execute(
                sql: """
                    INSERT INTO push (userId, deviceId, pushToken, conversationId, messageId, preview, sentAt) VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    userId, device["deviceId"] as String, device["pushToken"] as String?, message.conversationId, message.id,
                    Self.preview(of: message.content), now.milliseconds,
                ])
        }
    }

    /// Whether `validateIdentifier` would accept `id`.
    static func isValidIdentifier(_ id: String) -> Bool {
        (try? validateIdentifier(id, what: "")) != nil
    }
}
