import ChatCore

/// A device subscribed to a user's pushes (C1), for inspection by the
/// workbench (`server pushes`, `server.pushes(ID)`).
///
/// A sign-in subscribes the device; only a logout from it (or a merge of an
/// anonymous user, or `unregisterDevice`) removes the subscription — not a
/// token's expiry or revocation, not a client clearing its local data.
package struct BackendDevice: Sendable, Hashable {
    package var deviceId: String
    package var userId: String
    /// Whether the device registered a push token (the token itself is not exposed).
    package var hasPushToken: Bool
    package var subscribedAt: Instant

    package init(deviceId: String, userId: String, hasPushToken: Bool, subscribedAt: Instant) {
        self.deviceId = deviceId
        self.userId = userId
        self.hasPushToken = hasPushToken
        self.subscribedAt = subscribedAt
    }
}
