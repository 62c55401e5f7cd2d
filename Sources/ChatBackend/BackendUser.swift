import ChatCore

/// A user as the backend stores it, for inspection by the workbench
/// (`server users`).
package struct BackendUser: Sendable, Codable, Hashable {
    /// The user's id, chosen by the app (or generated for anonymous users).
    /// Ids are per app: another app may have a user with the same id.
    package var id: String
    /// The key the backend stores the user under (``AppKey``): `id`, or `id`
    /// scoped to its app when another app held `id` first. The package's
    /// inspection calls by user (``Backend/sessions(userId:)``…) take it.
    package var key: String
    /// The API key of the app the user belongs to.
    package var apiKey: String
    /// Whether the server created this user without an identity (A7).
    package var isAnonymous: Bool
    /// The user's nickname, if any (A14).
    package var nickname: String?
    /// The user's profile URL, if any (A14).
    package var profileURL: String?
    /// Free-form attributes set by the app (A12, A13).
    package var attributes: [String: String]
    /// When the backend first saw the user.
    package var createdAt: Instant
    /// The JWT's `name` claim, if a JWT gave one (A5).
    package var name: String? = nil
    /// The JWT's `email` claim, if a JWT gave one (A5).
    package var email: String? = nil
    /// The id of the user this anonymous user was merged into (A8); such a
    /// user is retired: it can no longer sign in.
    package var mergedInto: String? = nil

    /// Creates a user value.
    package init(
        id: String, key: String? = nil, apiKey: String, isAnonymous: Bool, nickname: String? = nil, profileURL: String? = nil,
        attributes: [String: String] = [:], createdAt: Instant,
        name: String? = nil, email: String? = nil, mergedInto: String? = nil
    ) {
        self.name = name
        self.email = email
        self.mergedInto = mergedInto
        self.id = id
        self.key = key ?? id
        self.apiKey = apiKey
        self.isAnonymous = isAnonymous
        self.nickname = nickname
        self.profileURL = profileURL
        self.attributes = attributes
        self.createdAt = createdAt
    }
}
