extension ClientCore {
    /// A valid access token, asking the provider or refreshing when needed;
    /// concurrent callers share one attempt (single flight, A1).
    func accessToken(forceRefresh: Bool = false) async throws -> String {
        let user = try requireUser()
        if !forceRefresh, let tokens, tokens.accessExpiresAt - configuration.refreshMargin > now {
            return tokens.accessToken
        }
        if let authentication { return try await authentication.task.value }
        let id = nextAuthenticationID
        nextAuthenticationID += 1
        let expected = generation
        let task = Task(executorPreference: runtime.executor) {
            try await self.authenticate(user: user, generation: expected)
        }
        authentication = (id, task)
        defer { if authentication?.id == id { authentication = nil } }
        return try await task.value
    }

    private func authenticate(user: String, generation expected: Int) async throws -> String {
        if let current = tokens, current.refreshExpiresAt > now {
            setSession(.refreshing(userId: user))
            do {
                let response = try await performRaw(.refresh(refreshToken: current.refreshToken), token: nil)
                try checkGeneration(expected)
                guard case .tokens(let pair) = response else {
                    throw ChatError(.networkFailure, "Unexpected answer to refresh")
                }
                return adopt(pair, user: user)
            } catch let error as ChatError where error.code == ChatError.Code(.invalidRefreshToken) || error.code == ChatError.Code(.expiredRefreshToken) {
                try checkGeneration(expected)
                tokens = nil
            } catch {
                try checkGeneration(expected)
                setSession(.authenticated(userId: user, via: .tokens))
                throw error
            }
        }
        guard let provider else {
            setSession(.needsCredentials(userId: user, reason: "no token provider"))
            throw ChatError(.providerFailed, "No SessionTokenProvider was given to the client")
        }
        setSession(.authenticating(userId: user))
        let pair: TokenPair
        do {
            pair = try await callProvider(provider, user: user)
        } catch let error as ChatError {
            try checkGeneration(expected)
            setSession(.needsCredentials(userId: user, reason: error.code.rawValue))
            throw error
        } catch is CancellationError {
            throw ChatError(.userCleared, "The user was cleared while the provider was asked")
        } catch {
            try checkGeneration(expected)
            setSession(.needsCredentials(userId: user, reason: ChatError.Code.providerFailed.rawValue))
            throw ChatError(.providerFailed, "The token provider failed: \(error)")
        }
        try checkGeneration(expected)
        if let problem = Self.problem(with: pair, now: now) {
            setSession(.needsCredentials(userId: user, reason: problem.code.rawValue))
            throw problem
        }
        return adopt(pair, user: user)
    }

    private func adopt(_ pair: TokenPair, user: String) -> String {
        tokens = pair
        setSession(.authenticated(userId: user, via: .tokens))
        scheduleProactiveRefresh()
        ensureRealtime()
        return pair.accessToken
    }

    /// Asks the provider, bounded by `providerTimeout`.
    private func callProvider(_ provider: any SessionTokenProvider, user: String) async throws -> TokenPair {
        let runtime = self.runtime
        let timeout = configuration.providerTimeout
        return try await withThrowingTaskGroup(of: TokenPair.self) { group in
            group.addTask { try await provider.provideTokens(forUserId: user) }
            group.addTask {
                try await runtime.sleep(for: timeout, kind: .timer)
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
        guard let tokens else { return }
        let deadline = tokens.accessExpiresAt - configuration.refreshMargin
        let expected = generation
        let runtime = self.runtime
        refreshTimer = Task(executorPreference: runtime.executor) {
            do { try await runtime.sleep(until: deadline, kind: .timer) } catch { return }
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
        } catch let error as ChatError where error.code == ChatError.Code(.expiredToken) {
            try checkGeneration(expected)
            if let current = tokens, current.accessToken == token {
                tokens?.accessExpiresAt = now
            }
            token = try await accessToken()
            try checkGeneration(expected)
            return try await performRaw(request, token: token)
        } catch let error as ChatError where error.code == ChatError.Code(.invalidToken) {
            try checkGeneration(expected)
            endSession(reason: "invalidToken")
            throw ChatError(.sessionClosed, "The server refused the access token as invalid; the session was closed")
        }
    }

    /// One request as it is, errors turned into `ChatError`.
    func performRaw(_ request: WireRequest, token: String?) async throws -> WireResponse {
        let envelope = WireEnvelope(apiKey: configuration.apiKey, accessToken: token, deviceId: configuration.deviceId, request: request)
        do {
            return try await configuration.transport.perform(envelope)
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
        tokens = nil
        refreshTimer?.cancel()
        refreshTimer = nil
        closeRealtime()
        setSession(.closed(reason: reason))
    }
}
