import ChatCore

/// An open server session (one per sign-in), for inspection by the
/// workbench (`server sessions`, `server.sessions(ID)`).
public struct BackendSession: Sendable, Hashable {
    /// The session's id (`ses-N`).
    public var id: String
    public var userId: String
    /// The device that signed in; nil for tokens from `issueTokens` not yet used.
    public var deviceId: String?
    /// How the session was opened.
    public var authenticationType: WireUser.AuthenticationType
    public var openedAt: Instant

    public init(id: String, userId: String, deviceId: String?, authenticationType: WireUser.AuthenticationType, openedAt: Instant) {
        self.id = id
        self.userId = userId
        self.deviceId = deviceId
        self.authenticationType = authenticationType
        self.openedAt = openedAt
    }
}
