import ChatCore
import GRDB

extension Backend {
    /// The app's own backend minting tokens for a user (what a SessionTokenProvider calls). Creates the user if unknown.
    ///
    /// The pair opens a session (authentication type `tokens`) that is bound
    /// to the device of the first request made with it, which subscribes
    /// that device to the user's pushes (C1).
    ///
    /// Throws `invalidApiKey` for an unknown key and `badRequest` for an
    /// empty or oversized user id. User ids are per app (``AppKey``): a user
    /// another app has under the same id is another user.
    package func issueTokens(apiKey: String, userId: String) throws(WireError) -> TokenPair {
        let userId = Identifier.normalized(userId)
        try Self.validateIdentifier(userId, what: "user id")
        return try write { db in
            let settings = try Self.appSettings(db, apiKey: apiKey)
            let key = try ensureUser(db, id: userId, apiKey: apiKey, isAnonymous: false)
            return try openSession(db, userId: key, apiKey: apiKey, settings: settings, via: .tokens, deviceId: nil)
        }
    }

    /// Exchanges a refresh token for a new pair in the same session; the old
    /// refresh token becomes invalid (rotation). A session opened with a
    /// session token answers `expiredSessionToken` once that token is past
    /// its lifetime (`invalidRefreshToken` if it was revoked).
    ///
    /// A refresh token used again after its rotation is a stolen copy or a
    /// replay (OAuth 2.0 security BCP, refresh token reuse detection): it is
    /// refused, and its whole family with it: every token of its session is
    /// revoked, the session closes and its event streams end.
    func refresh(apiKey: String, refreshToken: String, deviceId: String? = nil) throws(WireError) -> TokenPair {
        let outcome = try write { db -> RefreshOutcome in
            let settings = try Self.appSettings(db, apiKey: apiKey)
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT userId, apiKey, expiresAt, revokedAt, sessionId, credential FROM token WHERE token = ? AND kind = 'refresh'
                            """), arguments: [refreshToken]),
                (row["apiKey"] as String).isSameIdentifier(as: apiKey)
            else { throw WireError(.invalidRefreshToken) }
            let now = environment.now()
            if row["revokedAt"] as Int64? != nil {
                guard let sessionId = row["sessionId"] as String? else { throw WireError(.invalidRefreshToken) }
                let revoked = try revokeFamily(db, sessionId: sessionId, now: now)
                return revoked ? .reused(sessionId: sessionId) : .refused
            }
            var credentialExpiry: Instant?
            if let credential = row["credential"] as String? {
                guard
                    let cred = try Row.fetchOne(
                        db, sql: "SELECT kind, expiresAt, revokedAt FROM token WHERE token = ?", arguments: [credential]),
                    cred["revokedAt"] as Int64? == nil
                else { throw WireError(.invalidRefreshToken) }
                if cred["kind"] as String == "session" {
                    guard now.milliseconds < cred["expiresAt"] as Int64 else { throw WireError(.expiredSessionToken) }
                    credentialExpiry = Instant(milliseconds: cred["expiresAt"])
                }
            }
            guard now.milliseconds < row["expiresAt"] as Int64 else { throw WireError(.expiredRefreshToken) }
            try db.cachedStatement(sql: "UPDATE token SET revokedAt = ? WHERE token = ?").execute(arguments: [
                now.milliseconds, refreshToken,
            ])
            let sessionId: String? = row["sessionId"]
            if let sessionId, let deviceId { try bindDevice(db, sessionId: sessionId, deviceId: deviceId, now: now) }
            return .pair(
                try mintPair(
                    db, userId: row["userId"], apiKey: apiKey, settings: settings, sessionId: sessionId,
                    credential: row["credential"], credentialExpiry: credentialExpiry))
        }
        switch outcome {
        case .pair(let pair):
            return pair
        case .refused:
            throw WireError(.invalidRefreshToken)
        case .reused(let sessionId):
            closeSubscriptions(reason: WireError(.invalidToken, "A refresh token of this session was used twice")) { subscription, _ in
                subscription.sessionId == sessionId
            }
            throw WireError(.invalidRefreshToken, "The refresh token was already used: its session is revoked")
        }
    }

    private enum RefreshOutcome {
        case pair(TokenPair)
        /// A rotated refresh token came back: its session was revoked now.
        case reused(sessionId: String)
        /// A revoked refresh token of a session already closed.
        case refused
    }

    /// Revokes every token of a session and closes it; whether anything was
    /// still open.
    private func revokeFamily(_ db: Database, sessionId: String, now: Instant) throws -> Bool {
        try db.execute(
            sql: "UPDATE token SET revokedAt = ? WHERE sessionId = ? AND revokedAt IS NULL", arguments: [now.milliseconds, sessionId])
        let tokens = db.changesCount
        try db.execute(
            sql: "UPDATE session SET closedAt = ? WHERE id = ? AND closedAt IS NULL", arguments: [now.milliseconds, sessionId])
        return tokens + db.changesCount > 0
    }

    /// Checks an access token: missing, unknown, revoked or of another app →
    /// `invalidToken`; expired (now >= expiry) → `expiredToken`.
    ///
    /// With a `deviceId`, a session not yet bound to a device (tokens from
    /// ``issueTokens(apiKey:userId:)``) is bound to it, which subscribes the
    /// device to the user's pushes.
    func authenticate(apiKey: String, accessToken: String?, deviceId: String? = nil) throws(WireError) -> Caller {
        let (caller, needsBinding) = try read { db -> (Caller, Bool) in
            let settings = try Self.appSettings(db, apiKey: apiKey)
            guard let accessToken,
                let row = try Row.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT t.userId, t.apiKey, t.expiresAt, t.revokedAt, t.sessionId, s.via, s.deviceId
                            FROM token t LEFT JOIN session s ON s.id = t.sessionId
                            WHERE t.token = ? AND t.kind = 'access'
                            """), arguments: [accessToken]),
                row["revokedAt"] as Int64? == nil,
                row["apiKey"] as String == apiKey
            else { throw WireError(.invalidToken) }
            guard environment.now().milliseconds < row["expiresAt"] as Int64 else { throw WireError(.expiredToken) }
            let via = (row["via"] as String?).flatMap(WireUser.AuthenticationType.init(rawValue:)) ?? .tokens
            let caller = Caller(userId: row["userId"], apiKey: apiKey, settings: settings, sessionId: row["sessionId"], via: via)
            return (caller, caller.sessionId != nil && row["deviceId"] as String? == nil && deviceId != nil)
        }
        if needsBinding, let sessionId = caller.sessionId, let deviceId {
            let now = environment.now()
            try write { db in try bindDevice(db, sessionId: sessionId, deviceId: deviceId, now: now) }
        }
        return caller
    }

    /// "token expire": makes the user's current access tokens expired now.
    /// `userId` is the user's key (``AppKey``; ``AppScope`` takes an app's id).
    package func expireAccessTokens(userId: String) {
        let now = environment.now().milliseconds
        _ = try? write { db in
            try db.cachedStatement(
                sql: """
                    UPDATE token SET expiresAt = ? WHERE userId = ? AND kind = 'access' AND revokedAt IS NULL AND expiresAt > ?
                    """
            ).execute(arguments: [now, userId, now])
        }
    }

    /// "token revoke": every token of the user becomes invalid — access and
    /// refresh tokens, and the app-issued access and session tokens — and
    /// every session of the user closes, ending its realtime subscriptions
    /// (their `onClose` is told `invalidToken`). Push subscriptions stay:
    /// only a logout removes them. `userId` is the user's key (``AppKey``;
    /// ``AppScope`` takes an app's id).
    package func revokeTokens(userId: String) {
        let now = environment.now().milliseconds
        _ = try? write { db in
            try db.cachedStatement(sql: "UPDATE token SET revokedAt = ? WHERE userId = ? AND revokedAt IS NULL").execute(arguments: [
                now, userId,
            ])
            try db.cachedStatement(sql: "UPDATE session SET closedAt = ? WHERE userId = ? AND closedAt IS NULL").execute(arguments: [
                now, userId,
            ])
        }
        closeSubscriptions(reason: WireError(.invalidToken, "The user's tokens were revoked")) { subscription, _ in
            subscription.userId.isSameIdentifier(as: userId)
        }
    }

    /// Open sessions of a user by key (see ``sessions(userId:)``).
    package func sessionCount(userId: String) -> Int {
        sessions(userId: userId).count
    }

    // MARK: Helpers

    /// The key (``AppKey``) of the app's user `id`, or nil when the app has
    /// no such user (whether or not another app has one).
    func userKey(_ db: Database, id: String, apiKey: String) throws -> String? {
        try String.fetchOne(
            db.cachedStatement(sql: "SELECT id FROM user WHERE id IN (?, ?) AND apiKey = ? ORDER BY length(id) LIMIT 1"),
            arguments: [id, AppKey.scoped(id, apiKey: apiKey), apiKey])
    }

    /// The key of the app's user `id`, created if the app has none: under
    /// `id` itself, or scoped to the app when another app holds `id`
    /// (``AppKey``), which changes nothing the app sees. A user merged into
    /// another (A8) is `forbidden`.
    @discardableResult
    func ensureUser(_ db: Database, id: String, apiKey: String, isAnonymous: Bool) throws -> String {
        if let key = try userKey(db, id: id, apiKey: apiKey) {
            let mergedInto = try String.fetchOne(db.cachedStatement(sql: "SELECT mergedInto FROM user WHERE id = ?"), arguments: [key])
            guard mergedInto == nil else { throw WireError(.forbidden, "The user was merged into another user") }
            return key
        }
        let held = try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM user WHERE id = ?"), arguments: [id]) == true
        let key = held ? AppKey.scoped(id, apiKey: apiKey) : id
        try db.execute(
            sql: "INSERT INTO user (id, apiKey, isAnonymous, createdAt) VALUES (?, ?, ?, ?)",
            arguments: [key, apiKey, isAnonymous, environment.now().milliseconds])
        return key
    }

    /// Mints a pair in a session. Tokens that come from an app-issued session
    /// token never outlive it (`credentialExpiry`).
    func mintPair(
        _ db: Database, userId: String, apiKey: String, settings: AppSettings, sessionId: String?,
        credential: String? = nil, credentialExpiry: Instant? = nil
    ) throws -> TokenPair {
        let now = environment.now()
        var accessExpiresAt = now.adding(settings.accessTokenTTL)
        var refreshExpiresAt = now.adding(settings.refreshTokenTTL)
        if let credentialExpiry {
            accessExpiresAt = min(accessExpiresAt, credentialExpiry)
            refreshExpiresAt = min(refreshExpiresAt, credentialExpiry)
        }
        let access = try insertToken(
            db, prefix: "at-", kind: "access", userId: userId, apiKey: apiKey, now: now, expiresAt: accessExpiresAt,
            sessionId: sessionId, credential: credential)
        let refresh = try insertToken(
            db, prefix: "rt-", kind: "refresh", userId: userId, apiKey: apiKey, now: now, expiresAt: refreshExpiresAt,
            sessionId: sessionId, credential: credential)
        return TokenPair(accessToken: access, accessExpiresAt: accessExpiresAt, refreshToken: refresh, refreshExpiresAt: refreshExpiresAt)
    }

    func insertToken(
        _ db: Database, prefix: String, kind: String, userId: String, apiKey: String, now: Instant, expiresAt: Instant,
        sessionId: String? = nil, credential: String? = nil
    ) throws -> String {
        // makeID is random in the simulation; guard against the odd collision.
        for _ in 0..<16 {
            let token = environment.makeID(prefix)
            if try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM token WHERE token = ?"), arguments: [token]) == true { continue }
            try db.cachedStatement(
                sql: """
                    INSERT INTO token (token, kind, userId, apiKey, issuedAt, expiresAt, sessionId, credential) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [token, kind, userId, apiKey, now.milliseconds, expiresAt.milliseconds, sessionId, credential])
            return token
        }
        throw WireError(.internalError, "Could not generate a unique token")
    }

    /// Rejects empty, oversized (over 256 Unicode scalars) or control-character
    /// identifiers with `badRequest` (docs/openapi.json states the same limits).
    package static func validateIdentifier(_ id: String, what: String) throws(WireError) {
        if let problem = WireLimits.identifierProblem(id) { throw WireError(.badRequest, "The \(what) \(problem)") }
    }
}

extension Instant {
    /// `self + duration`, saturating instead of overflowing (settings may hold
    /// absurd durations; the backend must not crash on them).
    func adding(_ duration: Duration) -> Instant {
        let (seconds, attoseconds) = duration.components
        let (ms, overflow1) = seconds.multipliedReportingOverflow(by: 1000)
        let (delta, overflow2) = ms.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
        if overflow1 || overflow2 {
            return Instant(milliseconds: seconds < 0 ? Int64.min / 2 : Int64.max / 2)
        }
        let (sum, overflow3) = milliseconds.addingReportingOverflow(delta)
        if overflow3 { return Instant(milliseconds: delta < 0 ? Int64.min / 2 : Int64.max / 2) }
        return Instant(milliseconds: sum)
    }
}
