import ChatSimulation

/// The app the workbench plays: its API key, which clients use unless
/// `client new --api-key` says otherwise, and its secret, with which the
/// workbench acts as the app's backend (the other side's routes, tokens,
/// JWTs and user signatures). The demo app's in the embedded world and by
/// default against a server; `chatbench --server URL --api-key KEY` with the
/// secret in `CHATBENCH_APP_SECRET` plays an app of the server's own
/// (`chatbench apps add`).
package struct AppCredentials: Sendable, Equatable {
    package var apiKey: String
    package var secret: String

    package init(apiKey: String, secret: String) {
        self.apiKey = apiKey
        self.secret = secret
    }

    /// The demo app: the embedded world's, and the one `chatbench serve` makes.
    package static let demo = AppCredentials(apiKey: World.apiKey, secret: World.jwtSecret)
}
