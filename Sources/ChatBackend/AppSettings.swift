import ChatCore

/// The settings of one app registered on the backend (SPEC S1).
///
/// Every property has a documented default, so `AppSettings()` is what a new
/// app gets.
public struct AppSettings: Sendable, Codable, Hashable {
    /// Whether a client may connect with a user id alone (A10). Default: yes.
    public var allowUserIdOnly = true
    /// Whether a client must present an access token to connect (A10). Default: no.
    public var requireAccessToken = false
    /// Lifetime of an access token issued by `issueTokens` or a refresh. Default: 1 hour.
    public var accessTokenTTL: Duration = .seconds(3600)
    /// Lifetime of a refresh token. Default: 30 days.
    public var refreshTokenTTL: Duration = .seconds(30 * 24 * 3600)
    /// Lifetime of a session token (A10). Default: 1 hour.
    public var sessionTokenTTL: Duration = .seconds(3600)
    /// Largest attachment accepted, in bytes. Default: 25 MiB.
    public var maxAttachmentBytes: Int64 = 25 * 1024 * 1024
    /// MIME types accepted for attachments (compared case-insensitively).
    public var allowedMimeTypes: [String] = [
        "image/jpeg", "image/png", "image/gif", "video/mp4", "application/pdf", "audio/mpeg", "audio/mp4",
    ]
    /// How long a provider's "typing" state lasts unless renewed (D9). Default: 6 seconds.
    public var typingTTL: Duration = .seconds(6)

    /// The default settings.
    public init() {}
}
