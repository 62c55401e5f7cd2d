internal import ChatCore
import Synchronization

extension ClientCore {
    /// Applies a session event and publishes the state when it changed.
    func apply(_ event: SessionStateMachine.Event) {
        if let state = machine.handle(event) { publish(.sessionChanged(state)) }
    }

    /// A valid access token: asking the provider, refreshing or signing in
    /// again as the session's credential requires; concurrent callers share
    /// one attempt (single flight, A1).
    func accessToken(forceRefresh: Bool = false) async throws -> String {
        if forceRefresh, let token = machine.tokens?.accessToken { apply(.accessTokenExpired(token)) }
        if case .use(let token) = machine.nextStep(now: now, margin: configuration.refreshMargin) { return token }
        if case .fail(let error) = machine.nextStep(now: now, margin: configuration.refreshMargin) { throw error }
        if let authentication { return try await authentication.task.value }
        let id = nextAuthenticationID
        nextAuthenticationID += 1
        let expected = generation
        let task = Task(executorPreference: runtime.executor) {
            try await self.authenticate(generation: expected)
        }
        authentication = (id, task)
        defer { if authentication?.id == id { authentication = nil } }
        return try await task.value
    }

    /// Takes the machine's steps until there is a token. Bounded: a
    /// credential that keeps failing ends the session instead of looping.
    private func authenticate(generation expected: Int) async throws -> String {
        for _ in 0..<4 {
            try checkGeneration(expected)
            switch machine.nextStep(now: now, margin: configuration.refreshMargin) {
            case .use(let token):
                return token
            case .fail(let error):
                throw error
            case .refresh(let refreshToken):
                if let token = try await refresh(refreshToken, generation: expected) { return token }
            case .askProvider(let user):
                return try await askProvider(user: user, generation: expected)
            case .signIn(let request):
                if let token = try await signIn(request, generation: expected) { return token }
            }
        }
        apply(.closed(reason: "authentication keeps failing"))
        throw ChatError(.sessionClosed, "Authentication kept failing; the session was closed")
    }

    /// nil when the refresh token was refused and the credential must be used again.
    private func refresh(_ refreshToken: String, generation expected: Int) async throws -> String? {
        if machine.noteRefresh(at: now) {
            endSession(reason: "refresh loop")
            throw ChatError(.sessionClosed, "The session refreshed more than 5 times in a minute; it was closed instead of looping")
        }
        apply(.refreshing)
        do {
            let response = try await performRaw(.refresh(refreshToken: refreshToken), token: nil)
            try checkGeneration(expected)
            guard case .tokens(let pair) = response else { throw ChatError(.networkFailure, "Unexpected answer to refresh") }
            apply(.refreshed(pair))
            afterSignIn()
            return pair.accessToken
        } catch let error as ChatError where [.invalidRefreshToken, .expiredRefreshToken].contains(error.code) {
            try checkGeneration(expected)
            apply(.refreshRefused)
            return nil
        } catch let error as ChatError where error.code == .expiredSessionToken {
            try checkGeneration(expected)
            apply(.refreshRefused)
            try await renewSessionToken(generation: expected)
            return nil
        } catch {
            try checkGeneration(expected)
            apply(.refreshAborted)
            throw error
        }
    }

    private func askProvider(user: String, generation expected: Int) async throws -> String {
        guard let provider else {
            apply(.needsCredentials(reason: "no token provider"))
            throw ChatError(.providerFailed, "No SessionTokenProvider was given to the client")
        }
        apply(.authenticating)
        let pair: TokenPair
        do {
            pair = try await callProvider(provider, user: user)
        } catch let error as ChatError {
            try checkGeneration(expected)
            apply(.needsCredentials(reason: error.code.rawValue))
            throw error
        } catch is CancellationError {
            throw ChatError(.userCleared, "The user was cleared while the provider was asked")
        } catch {
            try checkGeneration(expected)
            apply(.needsCredentials(reason: ChatError.Code.providerFailed.rawValue))
            throw ChatError(.providerFailed, "The token provider failed: \(error)")
        }
        try checkGeneration(expected)
        if let problem = Self.problem(with: pair, now: now) {
            apply(.needsCredentials(reason: problem.code.rawValue))
            throw problem
        }
        apply(.signedIn(userId: user, tokens: pair))
        afterSignIn()
        return pair.accessToken
    }

    /// Signs in with the credential; nil when it was renewed and should be tried again.
    func signIn(_ request: WireRequest, generation expected: Int, carrying token: String? = nil) async throws -> String? {
        apply(.authenticating)
        do {
            let response = try await performRaw(request, token: token)
            try checkGeneration(expected)
            guard case .session(let pair, let user, _) = response else { throw ChatError(.networkFailure, "Unexpected answer to sign-in") }
            currentUser = ChatUser(user, via: machine.credential?.method ?? .tokens)
            apply(.signedIn(userId: user.id, tokens: pair))
            afterSignIn()
            return pair.accessToken
        } catch let error as ChatError where error.code == .expiredJWT {
            try checkGeneration(expected)
            publish(.authenticationFailed(error))
            if let delegate = authenticationDelegate, let jwt = await delegate.onInvalidAuth() {
                try checkGeneration(expected)
                apply(.credentialRenewed(.jwt(jwt)))
                return nil
            }
            try checkGeneration(expected)
            // No new JWT: the user is logged out implicitly (A6).
            clearLocally(reason: "expiredJWT")
            throw error
        } catch let error as ChatError where error.code == .expiredSessionToken {
            try checkGeneration(expected)
            try await renewSessionToken(generation: expected)
            return nil
        } catch let error as ChatError where error.code == .offline || error.code == .networkFailure {
            // Nothing in flight any more: the session says so (it is not
            // authenticating while the device is offline).
            if generation == expected { apply(.signInAborted) }
            throw error
        } catch let error as ChatError where error.code == .userCleared {
            throw error
        } catch let error as ChatError {
            try checkGeneration(expected)
            publish(.authenticationFailed(error))
            apply(.closed(reason: error.code.rawValue))
            throw error
        }
    }

    /// Asks the `SessionDelegate` for a new session token (A10).
    private func renewSessionToken(generation expected: Int) async throws {
        guard let delegate = sessionDelegate else {
            apply(.closed(reason: "sessionWasClosed"))
            publish(.sessionWasClosed)
            throw ChatError(.sessionClosed, "The session token expired and no SessionDelegate renews it")
        }
        let answer: Result<String?, any Error>
        do { answer = .success(try await delegate.renewSessionToken()) } catch { answer = .failure(error) }
        try checkGeneration(expected)
        switch answer {
        case .success(let token?):
            apply(.credentialRenewed(machine.credential?.renewed(sessionToken: token) ?? .sessionToken(token)))
            renewedSession = true
        case .success(nil):
            apply(.closed(reason: "sessionWasClosed"))
            publish(.sessionWasClosed)
            delegate.sessionWasClosed()
            throw ChatError(.sessionClosed, "The SessionDelegate declined to renew the session")
        case .failure(let error):
            let chatError = error as? ChatError ?? ChatError(.sessionClosed, "The SessionDelegate failed: \(error)")
            apply(.needsCredentials(reason: "sessionDidHaveError"))
            publish(.sessionDidHaveError(chatError))
            delegate.sessionDidHaveError(chatError)
            throw chatError
        }
    }

    /// After every successful sign-in or refresh.
    func afterSignIn() {
        if renewedSession {
            renewedSession = false
            publish(.sessionWasRefreshed)
            sessionDelegate?.sessionWasRefreshed()
        }
        scheduleProactiveRefresh()
        ensureRealtime()
        flushPendingLogouts()
    }

    /// Asks the provider, bounded by `providerTimeout`.
    private func callProvider(_ provider: any SessionTokenProvider, user: String) async throws -> TokenPair {
        let runtime = self.runtime
        let timeout = configuration.providerTimeout
        return try await withThrowingTaskGroup(of: TokenPair.self) { group in
            group.addTask { TokenPair(try await provider.provideTokens(forUserId: user)) }
            group.addTask {
                try await runtime.sleep(for: timeout, kind: .lifecycle("token provider timeout for \(user)"))
                throw ChatError(.providerTimeout, "The token provider did not answer within \(timeout)")
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }

    /// Tokens the provider should not have returned (A1).
    static func problem(with pair: TokenPair, now: Instant) -> ChatError? {
        func wellFormed(_ token: String) -> Bool {
            token.count >= 8 && token.unicodeScalars.allSatisfy { $0.value > 32 && $0.value < 127 }
        }
        guard wellFormed(pair.accessToken), wellFormed(pair.refreshToken) else {
            return ChatError(.malformedTokens, "The token provider returned malformed tokens")
        }
        if pair.accessExpiresAt <= now && pair.refreshExpiresAt <= now {
            return ChatError(.expiredTokens, "The token provider returned tokens that had already expired")
        }
        return nil
    }

    /// Refreshes a little before the access token expires (A2).
    private func scheduleProactiveRefresh() {
        refreshTimer?.cancel()
        guard let tokens = machine.tokens else { return }
        // A little before expiry, or at expiry when the tokens live shorter
        // than the margin (never in the past: that would loop).
        let early = tokens.accessExpiresAt - configuration.refreshMargin
        let deadline = early > now && !machine.refreshDidNotExtend ? early : tokens.accessExpiresAt
        let expected = generation
        let runtime = self.runtime
        let kind = WaitKind.lifecycle("refresh \(userId ?? "the user")'s tokens")
        refreshTimer = Task(executorPreference: runtime.executor) {
            do { try await runtime.sleep(until: deadline, kind: kind) } catch { return }
            guard await self.generation == expected else { return }
            _ = try? await self.accessToken(forceRefresh: true)
        }
    }

    // MARK: Requests

    /// Performs a user-scoped request: authenticates first, and replays it
    /// once after a refresh when the server says the token expired (A2).
    func request(_ request: WireRequest) async throws -> WireResponse {
        let expected = generation
        var token = try await accessToken()
        try checkGeneration(expected)
        do {
            return try await performRaw(request, token: token)
        } catch let error as ChatError where error.code == .expiredToken {
            try checkGeneration(expected)
            apply(.accessTokenExpired(token))
            token = try await accessToken()
            try checkGeneration(expected)
            return try await performRaw(request, token: token)
        } catch let error as ChatError where error.code == .invalidToken {
            try checkGeneration(expected)
            endSession(reason: "invalidToken")
            throw ChatError(.sessionClosed, "The server refused the access token as invalid; the session was closed")
        }
    }

    /// One request as it is, errors turned into `ChatError`.
    /// Conversation ids leave as the server knows them and come back as the
    /// app named them (ConversationAliases).
    func performRaw(_ request: WireRequest, token: String?) async throws -> WireResponse {
        let envelope = WireEnvelope(
            apiKey: configuration.apiKey, accessToken: token, deviceId: configuration.deviceId,
            request: aliases.withLock { $0.outgoing(request) }, headers: machine.credential?.headers ?? [:])
        let store = self.store
        do {
            let answer = try await configuration.transport.perform(envelope)
            // Unless the user changed meanwhile: their aliases are in their store.
            guard store === self.store else { return answer }
            return aliases.withLock { aliases in
                if let minted = aliases.minted(by: request, answer: answer) {
                    store.addConversationAlias(localId: minted.localId, serverId: minted.serverId)
                    aliases.add(localId: minted.localId, serverId: minted.serverId)
                }
                return aliases.incoming(answer)
            }
        } catch let error as WireError {
            throw ChatError(error)
        } catch let error as TransportError {
            throw ChatError(error.kind == .offline ? .offline : .networkFailure, error.message)
        } catch is CancellationError {
            throw ChatError(.userCleared, "The request was cancelled")
        }
    }

    /// Ends the session for good (an invalid token): tokens dropped, the
    /// realtime connection closed.
    func endSession(reason: String) {
        refreshTimer?.cancel()
        refreshTimer = nil
        closeRealtime()
        apply(.closed(reason: reason))
    }
}

/// Makes a callback-based answer resume a continuation once at most.
final class OnceFlag: Sendable {
    private let flag = Mutex(false)
    func set() -> Bool {
        flag.withLock { done in
            defer { done = true }
            return !done
        }
    }
}
