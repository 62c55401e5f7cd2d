import ChatCore

/// The settings of one app registered on the backend (SPEC S1).
///
/// Every property has a documented default, so `AppSettings()` is what a new
/// app gets.
package struct AppSettings: Sendable, Codable, Hashable {
    /// Whether a client may connect with a user id alone (A10). Default: yes.
    package var allowUserIdOnly = true
    /// Whether a client must present an access token to connect (A10). Default: no.
    package var requireAccessToken = false
    /// Lifetime of an access token issued by `issueTokens` or a refresh. Default: 1 hour.
    package var accessTokenTTL: Duration = .seconds(3600)
    /// Lifetime of a refresh token. Default: 30 days.
    package var refreshTokenTTL: Duration = .seconds(30 * 24 * 3600)
    /// Lifetime of a session token (A10). Default: 1 hour.
    package var sessionTokenTTL: Duration = .seconds(3600)
    /// Largest attachment accepted, in bytes. Default: 25 MiB.
    package var maxAttachmentBytes: Int64 = 25 * 1024 * 1024
    /// MIME types accepted for attachments (compared case-insensitively).
    package var allowedMimeTypes: [String] = [
        "image/jpeg", "image/png", "image/gif", "video/mp4", "application/pdf", "audio/mpeg", "audio/mp4",
    ]
    /// How long a provider's "typing" state lasts unless renewed (D9). Default: 6 seconds.
    package var typingTTL: Duration = .seconds(6)

    /// The default settings.
    package init() {}

    /// The limits on attachments these settings set (`appLimits`).
    package var attachmentLimits: WireAppLimits {
        WireAppLimits(maxAttachmentBytes: maxAttachmentBytes, allowedMimeTypes: allowedMimeTypes)
    }
}
