/// Bodies of the app-backend routes a workbench (or an app's own backend)
/// uses to inspect and drive a server with the app's secret (SPEC S1, S2):
/// users, sessions, push subscriptions and pushes, settings, credentials.
extension HTTPWire {
    /// One user, as `GET /v1/app/users` lists them.
    public struct AppUser: Codable, Sendable, Hashable {
        public var id: String
        public var isAnonymous: Bool
        public var nickname: String?
        public var attributes: [String: String]
        public var conversationCount: Int
        public var sessionCount: Int
        public init(
            id: String, isAnonymous: Bool, nickname: String? = nil, attributes: [String: String] = [:],
            conversationCount: Int, sessionCount: Int
        ) {
            self.id = id
            self.isAnonymous = isAnonymous
            self.nickname = nickname
            self.attributes = attributes
            self.conversationCount = conversationCount
            self.sessionCount = sessionCount
        }
    }

    /// One open server session of a user (`GET /v1/app/users/{id}/sessions`).
    public struct AppSession: Codable, Sendable, Hashable {
        public var authenticationType: WireUser.AuthenticationType
        public var deviceId: String?
        public init(authenticationType: WireUser.AuthenticationType, deviceId: String?) {
            self.authenticationType = authenticationType
            self.deviceId = deviceId
        }
    }

    /// One push sent to a device of a user (`GET /v1/app/users/{id}/pushes`).
    public struct AppPush: Codable, Sendable, Hashable {
        public var deviceId: String
        public var preview: String
        public init(deviceId: String, preview: String) {
            self.deviceId = deviceId
            self.preview = preview
        }
    }

    /// The app's settings as `key=value` strings, in the backend's order
    /// (`GET /v1/app/settings`; `POST /v1/app/settings` takes the keys to change).
    public struct AppSettingsBody: Codable, Sendable, Hashable {
        public var settings: [AppSetting]
        public init(settings: [AppSetting]) { self.settings = settings }
    }

    public struct AppSetting: Codable, Sendable, Hashable {
        public var key: String
        public var value: String
        public init(key: String, value: String) {
            self.key = key
            self.value = value
        }
    }

    /// `POST /v1/app/access-tokens` and `POST /v1/app/session-tokens`.
    public struct IssueCredentialBody: Codable, Sendable, Hashable {
        public var userId: String
        /// Session tokens only: lifetime in milliseconds (the app's default when nil).
        public var ttlMilliseconds: Int64?
        public init(userId: String, ttlMilliseconds: Int64? = nil) {
            self.userId = userId
            self.ttlMilliseconds = ttlMilliseconds
        }
    }

    /// The answer to the credential routes.
    public struct IssuedCredentialBody: Codable, Sendable, Hashable {
        public var token: String
        public var expiresAt: Instant?
        public init(token: String, expiresAt: Instant?) {
            self.token = token
            self.expiresAt = expiresAt
        }
    }
}
