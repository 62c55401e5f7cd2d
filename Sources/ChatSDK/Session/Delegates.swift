internal import ChatCore
import Foundation

/// Asked for a new JWT when the server says the one the user logged in
/// with has expired (A6). Return nil to give up: the user is logged out.
///
/// Implement one of the two methods: ``onInvalidAuth(userId:reason:)``
/// says for which user and why (the server's error, e.g.
/// ``ChatError/Code/expiredJWT``); by default it asks ``onInvalidAuth()``,
/// which by default gives up.
///
/// ```swift
/// struct Renewer: AuthenticationDelegate {
///     let backend: MyBackend
///     func onInvalidAuth(userId: String, reason: ChatError) async -> String? {
///         try? await backend.chatJWT(for: userId)
///     }
/// }
/// ```
public protocol AuthenticationDelegate: Sendable {
    /// A new JWT for the signed-in user, or nil to log them out.
    func onInvalidAuth() async -> String?
    /// A new JWT for `userId`, whose JWT the server refused with `reason`,
    /// or nil to log them out.
    func onInvalidAuth(userId: String, reason: ChatError) async -> String?
}

extension AuthenticationDelegate {
    /// Gives up: the user is logged out.
    public func onInvalidAuth() async -> String? { nil }
    /// Asks ``onInvalidAuth()``.
    public func onInvalidAuth(userId: String, reason: ChatError) async -> String? { await onInvalidAuth() }
}

/// Renews the session token of a `connect(userId:sessionToken:)` session
/// (A10). Set it before `connect`. Async, like `AuthenticationDelegate`;
/// ``CallbackSessionDelegate`` keeps the success/fail callback shape.
public protocol SessionDelegate: Sendable {
    /// A new session token, nil to close the session; a thrown error is
    /// reported (`sessionDidHaveError`) and the user must sign in again.
    /// Runs on the client's executor, like the SDK's own work.
    nonisolated(nonsending) func renewSessionToken() async throws -> String?
    func sessionWasRefreshed()
    func sessionWasClosed()
    func sessionDidHaveError(_ error: ChatError)
}

extension SessionDelegate {
    public func sessionWasRefreshed() {}
    public func sessionWasClosed() {}
    public func sessionDidHaveError(_ error: ChatError) {}
}

/// A session delegate in the callback shape other chat SDKs use: call
/// `success` with a new token, `success(nil)` to close the session, or
/// `fail`. Only the first answer counts.
public protocol CallbackSessionDelegate: SessionDelegate {
    func sessionTokenDidRequire(success: @escaping @Sendable (String?) -> Void, fail: @escaping @Sendable (any Error) -> Void)
}

extension CallbackSessionDelegate {
    nonisolated(nonsending) public func renewSessionToken() async throws -> String? {
        let answer: Result<String?, any Error> = await withCheckedContinuation { continuation in
            let once = OnceFlag()
            sessionTokenDidRequire(
                success: { token in if once.set() { continuation.resume(returning: .success(token)) } },
                fail: { error in if once.set() { continuation.resume(returning: .failure(error)) } })
        }
        return try answer.get()
    }
}

/// The signed-in user as the SDK knows them (A7).
public struct ChatUser: Sendable, Hashable {
    public var id: String
    public var authenticationType: AuthenticationMethod
    public var isAnonymous: Bool
    public var name: String?
    public var nickname: String?
    public var profileURL: String?
    public var attributes: [String: String]

    public init(
        id: String, authenticationType: AuthenticationMethod = .authorized, isAnonymous: Bool = false, name: String? = nil,
        nickname: String? = nil, profileURL: String? = nil, attributes: [String: String] = [:]
    ) {
        self.id = id
        self.authenticationType = authenticationType
        self.isAnonymous = isAnonymous
        self.name = name
        self.nickname = nickname
        self.profileURL = profileURL
        self.attributes = attributes
    }

    init(_ wire: WireUser, via method: AuthenticationMethod) {
        self.init(
            id: wire.id, authenticationType: method, isAnonymous: wire.isAnonymous, name: wire.name,
            nickname: wire.nickname, profileURL: wire.profileURL, attributes: wire.attributes)
    }
}

/// A profile picture to upload (A14): JPEG or PNG, at most 5 MB.
public struct ProfileImage: Sendable, Hashable {
    public var mimeType: String
    public var size: Int64
    /// The image's bytes, uploaded first; nil for an image described by its size.
    public var data: Data?
    public init(mimeType: String, size: Int64) {
        self.mimeType = mimeType
        self.size = size
    }

    /// An image with its bytes: they are uploaded as an attachment's are.
    public init(data: Data, mimeType: String) {
        self.mimeType = mimeType
        self.size = Int64(data.count)
        self.data = data
    }
}
