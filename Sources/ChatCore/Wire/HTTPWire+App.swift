/// Bodies of the app-backend routes a workbench (or an app's own backend)
/// uses to inspect and drive a server with the app's secret (SPEC S1, S2):
/// users, sessions, push subscriptions and pushes, settings, credentials.
extension HTTPWire {
    /// Bytes the server holds for an app (D6, A14), as the workbench's
    /// `server attachments` lists them (the embedded backend only).
    package struct AppAttachment: Codable, Sendable, Hashable {
        package var id: String
        package var uploaderId: String
        /// The conversation of the message that names them; nil while none does.
        package var conversationId: String?
        /// "message" or "profile".
        package var purpose: String
        package var mimeType: String
        package var size: Int64
        package var createdAt: Instant

        package init(
            id: String, uploaderId: String, conversationId: String?, purpose: String, mimeType: String, size: Int64, createdAt: Instant
        ) {
            self.id = id
            self.uploaderId = uploaderId
            self.conversationId = conversationId
            self.purpose = purpose
            self.mimeType = mimeType
            self.size = size
            self.createdAt = createdAt
        }
    }

    /// One user, as `GET /v1/app/users` lists them.
    package struct AppUser: Codable, Sendable, Hashable {
        package var id: String
        package var isAnonymous: Bool
        package var nickname: String?
        package var attributes: [String: String]
        package var conversationCount: Int
        package var sessionCount: Int
        package init(
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
    package struct AppSession: Codable, Sendable, Hashable {
        package var authenticationType: WireUser.AuthenticationType
        package var deviceId: String?
        package init(authenticationType: WireUser.AuthenticationType, deviceId: String?) {
            self.authenticationType = authenticationType
            self.deviceId = deviceId
        }
    }

    /// One push sent to a device of a user (`GET /v1/app/users/{id}/pushes`),
    /// with the push token it went to (C4; nil when the device registered none).
    package struct AppPush: Codable, Sendable, Hashable {
        package var deviceId: String
        package var pushToken: String?
        package var preview: String
        package init(deviceId: String, pushToken: String? = nil, preview: String) {
            self.deviceId = deviceId
            self.pushToken = pushToken
            self.preview = preview
        }
    }

    /// One device subscribed to a user's pushes, with the push token it
    /// registered (C4; nil when none) (`GET /v1/app/users/{id}/devices`).
    package struct AppDevice: Codable, Sendable, Hashable {
        package var deviceId: String
        package var pushToken: String?
        package init(deviceId: String, pushToken: String? = nil) {
            self.deviceId = deviceId
            self.pushToken = pushToken
        }

        /// Also reads a bare device id, as traffic tapes recorded before
        /// devices carried their tokens hold them: a device without a token.
        package init(from decoder: any Decoder) throws {
            if let id = try? decoder.singleValueContainer().decode(String.self) {
                self.init(deviceId: id)
                return
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                deviceId: try container.decode(String.self, forKey: .deviceId),
                pushToken: try container.decodeIfPresent(String.self, forKey: .pushToken))
        }
    }

    /// The app's settings as `key=value` strings, in the backend's order
    /// (`GET /v1/app/settings`; `POST /v1/app/settings` takes the keys to change).
    package struct AppSettingsBody: Codable, Sendable, Hashable {
        package var settings: [AppSetting]
        package init(settings: [AppSetting]) { self.settings = settings }
    }

    package struct AppSetting: Codable, Sendable, Hashable {
        package var key: String
        package var value: String
        package init(key: String, value: String) {
            self.key = key
            self.value = value
        }
    }

    /// `POST /v1/app/access-tokens` and `POST /v1/app/session-tokens`.
    package struct IssueCredentialBody: Codable, Sendable, Hashable {
        package var userId: String
        /// Session tokens only: lifetime in milliseconds (the app's default when nil).
        package var ttlMilliseconds: Int64?
        package init(userId: String, ttlMilliseconds: Int64? = nil) {
            self.userId = userId
            self.ttlMilliseconds = ttlMilliseconds
        }
    }

    /// The answer to the credential routes.
    package struct IssuedCredentialBody: Codable, Sendable, Hashable {
        package var token: String
        package var expiresAt: Instant?
        package init(token: String, expiresAt: Instant?) {
            self.token = token
            self.expiresAt = expiresAt
        }
    }
}
