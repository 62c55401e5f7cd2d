import ChatCore

/// The authenticated author of a request: who they are, their app's
/// settings, and the session their access token belongs to.
struct Caller: Sendable {
    /// The user's key (``AppKey``): what the backend's tables hold.
    var userId: String
    var apiKey: String
    var settings: AppSettings
    /// The session of the access token (nil only for tokens stored before sessions existed).
    var sessionId: String? = nil
    /// How that session was opened.
    var via: WireUser.AuthenticationType = .tokens

    /// The user's id as their app knows it: what the wire says.
    var wireUserId: String { AppKey.visible(userId) }
}
