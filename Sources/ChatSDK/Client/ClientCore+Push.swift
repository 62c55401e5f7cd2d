internal import ChatCore

extension ClientCore {
    // MARK: Push tokens (C4)

    /// Registers this device's push token for the signed-in user, replacing
    /// the one it had: the server sends the user's pushes to it.
    func registerPushToken(_ token: String) async throws {
        try checkRunning()
        guard !token.isEmpty, !token.contains(where: \.isWhitespace), token.unicodeScalars.count <= 4096 else {
            throw ChatError(.invalidArgument, "A push token must be 1 to 4096 characters without spaces, got \"\(token)\"")
        }
        _ = try requireUser()
        _ = try await request(.registerDevice(pushToken: token))
    }

    /// Removes this device's push token and subscription for the signed-in
    /// user: no more pushes reach the device until the next sign-in.
    func unregisterPushToken() async throws {
        try checkRunning()
        _ = try requireUser()
        _ = try await request(.unregisterDevice)
    }
}
