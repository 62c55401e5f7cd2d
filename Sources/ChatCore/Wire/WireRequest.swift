import Foundation

/// A request from the SDK to the backend. Every request except `refresh`
/// and the sign-in requests (``isSignIn``) carries an access token in
/// `WireEnvelope.accessToken`.
///
/// Sign-in requests (`loginJWT`, `loginAnonymous`, `connect…`) answer
/// ``WireResponse/session(tokens:user:mergedConversationIds:)``: a token pair
/// (used as with a `SessionTokenProvider`, refreshed with `refresh`) and the
/// user. Each opens a server session for the envelope's `deviceId` and
/// subscribes that device to the user's pushes (C1). They need no access
/// token; one that is sent is ignored, except by `loginJWT` (merge, A8).
package enum WireRequest: Codable, Sendable, Hashable {
    /// Exchange a refresh token for a new token pair.
    case refresh(refreshToken: String)
    /// Conversations of the current user, most recently updated first.
    case listConversations(cursor: String?, limit: Int)
    case getConversation(id: String)
    /// Messages of a conversation, newest first.
    case listMessages(conversationId: String, cursor: String?, limit: Int)
    /// Messages with `seq > afterSeq`, oldest first (catch-up after a cut).
    case messagesSince(conversationId: String, afterSeq: Int64, limit: Int)
    /// Send a message; when `createConversation` is set and the conversation
    /// does not exist yet, it is created first (local-first conversations).
    /// Idempotent on `message.id` and on the conversation id.
    case sendMessage(conversationId: String, createConversation: NewConversation?, message: NewMessage)
    case setTyping(conversationId: String, isTyping: Bool)

    // MARK: Identity (SPEC A5–A14)

    /// Sign in with a JWT signed by the app's backend (A5): HS256 with the
    /// app's secret; claims `external_id` (the user id, required), `exp`
    /// (required), `name`, `email`, `iat` (optional; not in the future).
    /// Creates the user if unknown. Refusals: `invalidJWT`, `expiredJWT`.
    ///
    /// Merge (A8): when the envelope carries an access token (valid or merely
    /// expired, not revoked) of an *anonymous* user of the same app, that
    /// user's conversations move to the JWT's user, who receives a
    /// `conversationUpdated` event for each; the anonymous user is retired
    /// (tokens revoked, sessions closed, realtime ended, its push
    /// subscriptions removed). A token of a non-anonymous user is ignored.
    case loginJWT(jwt: String)
    /// Sign in as a new anonymous user, created by the server (A7).
    case loginAnonymous
    /// Connect with a user id alone (A10); creates the user if unknown.
    /// Refused with `accessTokenRequired` when the app requires an access
    /// token, else with `userIdOnlyNotAllowed` when it does not allow it,
    /// unless `signature` vouches for the user (A12, see ``UserSignature``).
    /// A signature that is given must be right: `invalidSignature` otherwise.
    case connectUserId(userId: String, signature: String? = nil)
    /// Connect with an access token issued by the app (`Backend.issueAccessToken`):
    /// it does not expire but can be revoked (`invalidAccessToken`). A
    /// `signature` that is given must be the user's (`invalidSignature`).
    case connectAccessToken(userId: String, accessToken: String, signature: String? = nil)
    /// Connect with a session token issued by the app (`Backend.issueSessionToken`),
    /// valid for the app's `sessionTokenTTL`. `expiredSessionToken` when past
    /// it, `invalidSessionToken` when unknown, revoked or another user's. The
    /// tokens it yields expire with it: a later `refresh` answers
    /// `expiredSessionToken`, and the SDK asks its `SessionDelegate` for a new one.
    /// A `signature` that is given must be the user's (`invalidSignature`).
    case connectSessionToken(userId: String, sessionToken: String, signature: String? = nil)
    /// Sign out (A9): closes the session of the envelope's access token,
    /// revokes its tokens, ends its realtime subscriptions and removes the
    /// envelope's device from the user's push subscriptions (other devices
    /// keep theirs). Accepts an expired (not revoked) access token, so that a
    /// logout queued offline still works; on an already closed session it is
    /// a no-op answering `.ok`. Without a known token: `userNotAuthorized`.
    case logout
    /// Subscribes the envelope's device to the caller's pushes, recording its
    /// push token (sign-ins already subscribe the device; this adds the token).
    case registerDevice(pushToken: String)
    /// Removes the envelope's device from the caller's push subscriptions.
    case unregisterDevice
    /// The signed-in user, with how this session authenticated (A7).
    case getCurrentUser
    /// Changes the caller's profile (A13, A14). `nil` leaves a field alone,
    /// an empty nickname or URL clears it; `attributes` are merged into the
    /// user's, an empty value removing its key, or with `replaceAttributes`
    /// replace them all (none given: the user has none left, as the SDK's
    /// `updateData(nil)` asks). Answers `.user`.
    case updateUser(nickname: String?, profileURL: String?, attributes: [String: String]?, replaceAttributes: Bool? = nil)
    /// Sets the caller's profile image (A14): `image/jpeg` or `image/png`, at
    /// most ``WireLimits/maxProfileImageBytes``; else `unsupportedMediaType`
    /// or `attachmentTooLarge`. The user's `profileURL` becomes the stored
    /// image's address. Answers `.user`. With `attachmentId`, the image is
    /// bytes the caller uploaded (`uploadAttachment`) and no message names,
    /// of that type and size: `profileURL` becomes their path
    /// (`/v1/attachments/{id}`), and anyone of the app may read them.
    case uploadProfileImage(mimeType: String, size: Int64, attachmentId: String? = nil)

    // MARK: Attachments (A14, D6)

    /// Stores the bytes of an attachment of the caller's, to be named by a
    /// message's content (`WireContent.attachment`'s `id`) in a later
    /// `sendMessage`. The type must be one of the app's `allowedMimeTypes`
    /// (`unsupportedMediaType`), the size at most its `maxAttachmentBytes`
    /// (`attachmentTooLarge`), and not empty (`badRequest`). Answers `.attachment`.
    case uploadAttachment(mimeType: String, data: Data)
    /// The bytes of an attachment: for a member of the conversation it was
    /// sent in, or its uploader while no message names it yet. Anyone else,
    /// like an unknown id, gets `unknownAttachment`. Answers `.attachmentData`.
    case attachmentData(id: String)
    /// The app's limits on attachments (its `maxAttachmentBytes` and
    /// `allowedMimeTypes`), which `uploadAttachment` checks. Answers `.limits`.
    case appLimits

    /// Whether this request signs a user in (needs no access token).
    package var isSignIn: Bool {
        switch self {
        case .loginJWT, .loginAnonymous, .connectUserId, .connectAccessToken, .connectSessionToken: true
        default: false
        }
    }

    package var name: String {
        switch self {
        case .refresh: "refresh"
        case .listConversations: "listConversations"
        case .getConversation: "getConversation"
        case .listMessages: "listMessages"
        case .messagesSince: "messagesSince"
        case .sendMessage: "sendMessage"
        case .setTyping: "setTyping"
        case .loginJWT: "loginJWT"
        case .loginAnonymous: "loginAnonymous"
        case .connectUserId: "connectUserId"
        case .connectAccessToken: "connectAccessToken"
        case .connectSessionToken: "connectSessionToken"
        case .logout: "logout"
        case .registerDevice: "registerDevice"
        case .unregisterDevice: "unregisterDevice"
        case .getCurrentUser: "getCurrentUser"
        case .updateUser: "updateUser"
        case .uploadProfileImage: "uploadProfileImage"
        case .uploadAttachment: "uploadAttachment"
        case .attachmentData: "attachmentData"
        case .appLimits: "appLimits"
        }
    }
}

package struct NewConversation: Codable, Sendable, Hashable {
    package var title: String?
    package init(title: String?) { self.title = title }
}

package struct NewMessage: Codable, Sendable, Hashable {
    package var id: String
    package var content: WireContent
    package var replyTo: String?
    package init(id: String, content: WireContent, replyTo: String?) {
        self.id = id
        self.content = content
        self.replyTo = replyTo
    }
}

/// What travels with every request.
package struct WireEnvelope: Codable, Sendable, Hashable {
    package var apiKey: String
    package var accessToken: String?
    package var deviceId: String
    package var request: WireRequest
    /// Header fields the app asked to send with each of its user's requests
    /// (`ChatAuth.headers`, A12), for a gateway of the app's in front of the
    /// server. Transport metadata, not part of the request's JSON: an HTTP
    /// transport sends them as header fields; the backend does not read them.
    package var headers: [String: String] = [:]

    private enum CodingKeys: String, CodingKey {
        case apiKey, accessToken, deviceId, request
    }

    package init(apiKey: String, accessToken: String?, deviceId: String, request: WireRequest, headers: [String: String] = [:]) {
        self.apiKey = apiKey
        self.accessToken = accessToken
        self.deviceId = deviceId
        self.request = request
        self.headers = headers
    }
}

/// The successful answer to a request.
package enum WireResponse: Codable, Sendable, Hashable {
    case tokens(TokenPair)
    case conversations(WirePage<WireConversation>)
    case conversation(WireConversation)
    case messages(WirePage<WireMessage>)
    case sent(conversation: WireConversation, message: WireMessage)
    case ok
    /// The answer to a sign-in request: the session's tokens, the user, and
    /// the ids of the conversations merged into the user by a `loginJWT`
    /// (A8; empty otherwise).
    case session(tokens: TokenPair, user: WireUser, mergedConversationIds: [String])
    /// The answer to `getCurrentUser`, `updateUser` and `uploadProfileImage`.
    case user(WireUser)
    /// The answer to `uploadAttachment`.
    case attachment(WireAttachment)
    /// The answer to `attachmentData`: the bytes and their type.
    case attachmentData(mimeType: String, data: Data)
    /// The answer to `appLimits`.
    case limits(WireAppLimits)
}

/// A pushed realtime event. `userSeq` increases by one per event for a user,
/// so a client that reconnects asks for everything after the last it saw.
package struct WireEvent: Codable, Sendable, Hashable {
    package var userSeq: Int64
    package var kind: Kind

    package init(userSeq: Int64, kind: Kind) {
        self.userSeq = userSeq
        self.kind = kind
    }

    package enum Kind: Codable, Sendable, Hashable {
        case messageCreated(WireMessage)
        case conversationUpdated(WireConversation)
        case typing(conversationId: String, providerName: String, until: Instant?)
    }
}
