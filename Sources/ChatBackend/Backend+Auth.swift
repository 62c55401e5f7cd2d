import ChatCore
import GRDB

extension Backend {
    /// The app's own backend minting tokens for a user (what a SessionTokenProvider calls). Creates the user if unknown.
    ///
    /// Throws `invalidApiKey` for an unknown key, `badRequest` for an empty or
    /// oversized user id, and `forbidden` if the user id belongs to another app.
    public func issueTokens(apiKey: String, userId: String) throws(WireError) -> TokenPair {
        try Self.validateIdentifier(userId, what: "user id")
        return try write { db in
            let settings = try Self.appSettings(db, apiKey: apiKey)
            try ensureUser(db, id: userId, apiKey: apiKey, isAnonymous: false)
            return try mintPair(db, userId: userId, apiKey: apiKey, settings: settings)
        }
    }

    /// Exchanges a refresh token for a new pair; the old refresh token becomes invalid (rotation).
    func refresh(apiKey: String, refreshToken: String) throws(WireError) -> TokenPair {
        try write { db in
            let settings = try Self.appSettings(db, apiKey: apiKey)
            guard let row = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT userId, apiKey, expiresAt, revokedAt FROM token WHERE token = ? AND kind = 'refresh'
                """), arguments: [refreshToken]),
                  row["revokedAt"] as Int64? == nil,
                  row["apiKey"] as String == apiKey
            else { throw WireError(.invalidRefreshToken) }
            let now = environment.now()
            guard now.milliseconds < row["expiresAt"] as Int64 else { throw WireError(.expiredRefreshToken) }
            try db.cachedStatement(sql: "UPDATE token SET revokedAt = ? WHERE token = ?").execute(arguments: [now.milliseconds, refreshToken])
            return try mintPair(db, userId: row["userId"], apiKey: apiKey, settings: settings)
        }
    }

    /// Checks an access token: missing, unknown, revoked or of another app →
    /// `invalidToken`; expired (now >= expiry) → `expiredToken`.
    func authenticate(apiKey: String, accessToken: String?) throws(WireError) -> Caller {
        try read { db in
            let settings = try Self.appSettings(db, apiKey: apiKey)
            guard let accessToken,
                  let row = try Row.fetchOne(db.cachedStatement(sql: """
                    SELECT userId, apiKey, expiresAt, revokedAt FROM token WHERE token = ? AND kind = 'access'
                    """), arguments: [accessToken]),
                  row["revokedAt"] as Int64? == nil,
                  row["apiKey"] as String == apiKey
            else { throw WireError(.invalidToken) }
            guard environment.now().milliseconds < row["expiresAt"] as Int64 else { throw WireError(.expiredToken) }
            return Caller(userId: row["userId"], apiKey: apiKey, settings: settings)
        }
    }

    /// "token expire": makes the user's current access tokens expired now.
    public func expireAccessTokens(userId: String) {
        let now = environment.now().milliseconds
        _ = try? write { db in
            try db.cachedStatement(sql: """
                UPDATE token SET expiresAt = ? WHERE userId = ? AND kind = 'access' AND revokedAt IS NULL AND expiresAt > ?
                """).execute(arguments: [now, userId, now])
        }
    }

    /// "token revoke": the user's access and refresh tokens become invalid.
    public func revokeTokens(userId: String) {
        let now = environment.now().milliseconds
        _ = try? write { db in
            try db.cachedStatement(sql: "UPDATE token SET revokedAt = ? WHERE userId = ? AND revokedAt IS NULL").execute(arguments: [now, userId])
        }
    }

    /// Open sessions of a user: their refresh tokens that are neither revoked nor expired.
    public func sessionCount(userId: String) -> Int {
        let now = environment.now().milliseconds
        return (try? read { db in
            try Int.fetchOne(db.cachedStatement(sql: """
                SELECT COUNT(*) FROM token WHERE userId = ? AND kind = 'refresh' AND revokedAt IS NULL AND expiresAt > ?
                """), arguments: [userId, now]) ?? 0
        }) ?? 0
    }

    // MARK: Helpers

    /// Creates the user if unknown; a user of another app is `forbidden`.
    func ensureUser(_ db: Database, id: String, apiKey: String, isAnonymous: Bool) throws {
        if let owner = try String.fetchOne(db.cachedStatement(sql: "SELECT apiKey FROM user WHERE id = ?"), arguments: [id]) {
            guard owner == apiKey else { throw WireError(.forbidden, "The user belongs to another app") }
            return
        }
        try db.execute(sql: "INSERT INTO user (id, apiKey, isAnonymous, createdAt) VALUES (?, ?, ?, ?)",
                       arguments: [id, apiKey, isAnonymous, environment.now().milliseconds])
    }

    private func mintPair(_ db: Database, userId: String, apiKey: String, settings: AppSettings) throws -> TokenPair {
        let now = environment.now()
        let accessExpiresAt = now.adding(settings.accessTokenTTL)
        let refreshExpiresAt = now.adding(settings.refreshTokenTTL)
        let access = try insertToken(db, prefix: "at-", kind: "access", userId: userId, apiKey: apiKey, now: now, expiresAt: accessExpiresAt)
        let refresh = try insertToken(db, prefix: "rt-", kind: "refresh", userId: userId, apiKey: apiKey, now: now, expiresAt: refreshExpiresAt)
        return TokenPair(accessToken: access, accessExpiresAt: accessExpiresAt, refreshToken: refresh, refreshExpiresAt: refreshExpiresAt)
    }

    private func insertToken(_ db: Database, prefix: String, kind: String, userId: String, apiKey: String, now: Instant, expiresAt: Instant) throws -> String {
        // makeID is random in the simulation; guard against the odd collision.
        for _ in 0..<16 {
            let token = environment.makeID(prefix)
            if try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM token WHERE token = ?"), arguments: [token]) == true { continue }
            try db.cachedStatement(sql: """
                INSERT INTO token (token, kind, userId, apiKey, issuedAt, expiresAt) VALUES (?, ?, ?, ?, ?, ?)
                """).execute(arguments: [token, kind, userId, apiKey, now.milliseconds, expiresAt.milliseconds])
            return token
        }
        throw WireError(.internalError, "Could not generate a unique token")
    }

    /// Rejects empty, oversized or control-character identifiers with `badRequest`.
    static func validateIdentifier(_ id: String, what: String) throws(WireError) {
        guard !id.isEmpty else { throw WireError(.badRequest, "The \(what) is empty") }
        guard id.utf8.count <= 256 else { throw WireError(.badRequest, "The \(what) is longer than 256 bytes") }
        guard !id.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw WireError(.badRequest, "The \(what) contains control characters")
        }
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
