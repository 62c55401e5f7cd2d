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
    /// The push token the device registered (C4), nil when it registered none.
    package var pushToken: String?
    package var subscribedAt: Instant

    package init(deviceId: String, userId: String, pushToken: String?, subscribedAt: Instant) {
        self.deviceId = deviceId
        self.userId = userId
        self.pushToken = pushToken
        self.subscribedAt = subscribedAt
    }
}
