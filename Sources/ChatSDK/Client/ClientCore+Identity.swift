internal import ChatCore
import Foundation

extension ClientCore {
    // MARK: Sign-in (A5, A7, A8, A10)

    /// Logs in with a JWT of the app's backend (A5). From an anonymous
    /// session, the server merges the anonymous user into this one (A8).
    func login(jwt: String) async throws -> ChatUser {
        try checkRunning()
        let mergeToken = machine.credential == .anonymous ? machine.tokens?.accessToken : nil
        return try await start(.jwt(jwt), user: Self.subject(ofJWT: jwt), request: .loginJWT(jwt: jwt), carrying: mergeToken)
    }

    /// Starts as a user the server creates (A7).
    func loginAnonymous() async throws -> ChatUser {
        try checkRunning()
        return try await start(.anonymous, user: nil, request: .loginAnonymous, carrying: nil)
    }

    /// The signed-in user; an anonymous client with nobody yet (after an
    /// anonymous logout) creates a new anonymous user now (A9).
    func ensureUser() async throws -> String {
        if let userId = machine.userId { return userId }
        if machine.credential == .anonymous { return try await loginAnonymous().id }
        throw ChatError.signInFirst()
    }

    /// `connect(userId:)` with no credential, an access token or a session token (A10).
    func connect(userId: String, credential: Credential) async throws -> ChatUser {
        try checkRunning()
        try Self.checkUserId(userId)
        let request: WireRequest =
            switch credential {
            case .accessToken(let token): .connectAccessToken(userId: userId, accessToken: token)
            case .sessionToken(let token): .connectSessionToken(userId: userId, sessionToken: token)
            default: .connectUserId(userId: userId)
            }
        return try await start(credential, user: userId, request: request, carrying: nil)
    }

    private func start(_ credential: Credential, user: String?, request: WireRequest, carrying token: String?) async throws -> ChatUser {
        switch machine.admits(userId: user, credential: credential) {
        case .noChange:
            if let currentUser { return currentUser }
        case .refused(let error):
            throw error
        case .allowed, .reconfigure:
            break
        }
        identify(user, credential)
        let call = machine.openCall()
        defer { machine.closeCall(call) }
        do {
            _ = try await drive(machine.startRun(.login(request, carrying: token)))
            guard let userId = machine.userId else { throw ChatError(.sessionClosed, "Sign-in kept failing") }
            // The user is known only now (anonymous, or a JWT whose
            // subject could not be read): open their store now.
            if user == nil {
                openStore(for: userId)
                resumeOutbox()
            }
            return currentUser ?? ChatUser(id: userId, authenticationType: credential.method)
        } catch {
            // A login that did not succeed leaves nobody signed in.
            if machine.isOpen(call), machine.credential != nil { clearLocally(reason: nil, keepingStore: true) }
            throw error
        }
    }

    /// A12: returns at once; errors reach the app as events.
    func authorize(user: ChatUser, auth: ChatAuth?) -> [String] {
        guard !isShutDown else {
            publish(.authenticationFailed(ChatError(.clientShutDown, "The client was shut down: make a new client")))
            return []
        }
        // A ChatAuth the SDK cannot use changes nothing and sends nothing;
        // the app hears why as any failure to authenticate.
        if let problem = auth?.problem {
            publish(.authenticationFailed(ChatError(.invalidArgument, problem)))
            return []
        }
        var warnings: [String] = []
        if Self.looksLikeContactDetails(user.id) {
            warnings.append(
                "the identifier \(user.id) looks like an e-mail address or a phone number: identifiers must be unique, persistent and hard to guess"
            )
        }
        let credential = Credential.authorized(auth ?? ChatAuth())
        switch machine.admits(userId: user.id, credential: credential) {
        case .noChange:
            for warning in warnings { publish(.warning(warning)) }
            return warnings
        case .reconfigure(let previous):
            warnings.append(
                "authorizing \(user.id) while \(previous) is authorized: \(previous)'s server session and push subscription stay open (call logout() or deauthorizeUser() first)"
            )
            clearLocally(reason: nil)
        case .refused:
            warnings.append("authorizing \(user.id) replaces the current user on this device")
            clearLocally(reason: nil)
        case .allowed:
            break
        }
        for warning in warnings { publish(.warning(warning)) }
        identify(user.id, credential)
        pendingAttributes.merge(user.attributes) { $1 }
        if user.name != nil || !user.attributes.isEmpty { pendingProfile = user }
        let call = machine.openCall()
        runtime.spawn { await self.signInAuthorized(call) }
        return warnings
    }

    /// Signs in the user `authorize` set; a failure reaches the app as an
    /// event, unless the user changed meanwhile.
    private func signInAuthorized(_ call: Int) async {
        defer { machine.closeCall(call) }
        do { _ = try await accessToken() } catch {
            guard machine.isOpen(call) else { return }
            // A refusal was already published as the session closed;
            // what is left to say is why nothing could be asked.
            if case .closed = session { return }
            publish(.authenticationFailed(error as? ChatError ?? ChatError(.networkFailure, "\(error)")))
        }
    }

    /// The `external_id` a JWT claims, read without verifying it (the
    /// server verifies); nil when it cannot be read.
    static func subject(ofJWT jwt: String) -> String? {
        guard let claims = Credential.claims(ofJWT: jwt), let subject = claims["external_id"] as? String, !subject.isEmpty,
            !subject.contains(where: \.isWhitespace)
        else { return nil }
        return subject
    }

    static func looksLikeContactDetails(_ id: String) -> Bool {
        if id.contains("@"), id.contains(".") { return true }
        let digits = id.filter(\.isNumber)
        return digits.count >= 7 && id.allSatisfy { $0.isNumber || "+-() ".contains($0) }
    }

    // MARK: Leaving (A9, A11)

    /// A9: the server session closes and this device stops receiving the
    /// user's pushes; local data goes at once. Offline, the server part is
    /// queued on disk and done when the network returns.
    func logout() async throws {
        try checkRunning()
        guard machine.credential != nil, machine.userId != nil || machine.tokens != nil else {
            throw ChatError(.userNotAuthorized, "Nobody is signed in: there is no one to log out")
        }
        let wasAnonymous = machine.credential == .anonymous
        if let token = machine.tokens?.accessToken {
            clientWideStore().addPendingLogout(accessToken: token)
        }
        clearLocally(reason: nil)
        if wasAnonymous { perform(machine.identify(userId: nil, credential: .anonymous)) }
        await flushPendingLogoutsNow()
    }

    /// Carries out queued logouts (after a sign-in, and when the network returns).
    func flushPendingLogouts() {
        guard !pendingLogouts().isEmpty else { return }
        runtime.spawn { await self.flushPendingLogoutsNow() }
    }

    func flushPendingLogoutsNow() async {
        for token in pendingLogouts() {
            do {
                _ = try await performRaw(.logout, token: token, for: nil)
                clientWideStore().removePendingLogout(accessToken: token)
            } catch let error as ChatError where error.code.isRetryable {
                return
            } catch {
                // Already logged out, or the token is gone: nothing left to do.
                clientWideStore().removePendingLogout(accessToken: token)
            }
        }
    }

    /// A11: the connection closes and in-memory state goes; the disk cache
    /// stays for the next connect of the same user.
    func disconnect() {
        guard !isShutDown, machine.credential != nil else { return }
        clearLocally(reason: "disconnected", keepingStore: true)
    }

    // MARK: User data (A13, A14)

    func updateData(_ attributes: [String: String]?) throws {
        try checkRunning()
        _ = try requireUser()
        guard let attributes else {
            // nil: the user's attributes are cleared, and what was pending goes.
            pendingAttributes = [:]
            pendingAttributesReplace = true
            return
        }
        pendingAttributes.merge(attributes) { $1 }
    }

    /// Sends pending attributes when a conversation opens with a live connection.
    func flushPendingAttributes() async {
        guard !pendingAttributes.isEmpty || pendingAttributesReplace || pendingProfile != nil, connection == .connected else { return }
        let attributes = pendingAttributes
        let replace = pendingAttributesReplace
        let nickname = pendingProfile?.name
        pendingAttributes = [:]
        pendingAttributesReplace = false
        pendingProfile = nil
        let request = WireRequest.updateUser(
            nickname: nickname, profileURL: nil, attributes: attributes, replaceAttributes: replace ? true : nil)
        if case .user(let user)? = try? await self.request(request) {
            currentUser = ChatUser(user, via: machine.credential?.method ?? .tokens)
        }
    }

    func prefill(_ text: String) {
        guard !isShutDown else { return }
        prefillText = text.isEmpty ? nil : text
    }

    func updateProfile(nickname: String?, profileURL: String?, image: ProfileImage?) async throws -> ChatUser {
        try checkRunning()
        _ = try requireUser()
        if let image {
            guard ["image/jpeg", "image/png"].contains(image.mimeType.lowercased()) else {
                throw ChatError(.unsupportedMediaType, "A profile image is JPEG or PNG, not \(image.mimeType); nothing was uploaded")
            }
            guard image.size > 0, image.size <= 5 * 1024 * 1024 else {
                throw ChatError(
                    .attachmentTooLarge, "A profile image is at most 5 MB (5242880 bytes), this one is \(image.size); nothing was uploaded")
            }
            // Its bytes, if given, go first, as an attachment's do.
            var attachmentId: String?
            if let data = image.data {
                guard case .attachment(let uploaded) = try await request(.uploadAttachment(mimeType: image.mimeType, data: data)) else {
                    throw ChatError(.invalidResponse, "The server answered an upload with something else")
                }
                attachmentId = uploaded.id
            }
            _ = try await request(.uploadProfileImage(mimeType: image.mimeType, size: image.size, attachmentId: attachmentId))
        }
        guard case .user(let user) = try await request(.updateUser(nickname: nickname, profileURL: profileURL, attributes: nil)) else {
            throw ChatError(.networkFailure, "Unexpected answer to updateUser")
        }
        let updated = ChatUser(user, via: machine.credential?.method ?? .tokens)
        currentUser = updated
        return updated
    }

    func currentUserSnapshot() -> ChatUser? {
        if let currentUser { return currentUser }
        guard let userId = machine.userId, let credential = machine.credential else { return nil }
        return ChatUser(id: userId, authenticationType: credential.method, isAnonymous: credential == .anonymous)
    }

    func setDelegates(authentication: (any AuthenticationDelegate)?, session: (any SessionDelegate)?, changingSession: Bool) throws {
        try checkRunning()
        if changingSession, case .sessionToken? = machine.credential {
            throw ChatError(.invalidArgument, "Set the SessionDelegate before connect(userId:sessionToken:)")
        }
        authenticationDelegate = authentication
        if changingSession { sessionDelegate = session }
    }
}
