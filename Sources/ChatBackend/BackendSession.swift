import ChatCore

/// An open server session (one per sign-in), for inspection by the
/// workbench (`server sessions`, `server.sessions(ID)`).
package struct BackendSession: Sendable, Hashable {
    /// The session's id (`ses-N`).
    package var id: String
    package var userId: String
    /// The device that signed in; nil for tokens from `issueTokens` not yet used.
    package var deviceId: String?
    /// How the session was opened.
    package var authenticationType: WireUser.AuthenticationType
    package var openedAt: Instant

    package init(id: String, userId: String, deviceId: String?, authenticationType: WireUser.AuthenticationType, openedAt: Instant) {
        self.id = id
        self.userId = userId
        self.deviceId = deviceId
        self.authenticationType = authenticationType
        self.openedAt = openedAt
    }
}
