internal import ChatCore

extension ClientCore {
    /// A valid access token: asking the provider, refreshing or signing in
    /// again as the session's credential requires; concurrent callers share
    /// one run of the session machine (single flight, A1).
    func accessToken(forceRefresh: Bool = false) async throws -> String {
        switch machine.tokenNeeded(forceRefresh: forceRefresh, now: now, margin: configuration.refreshMargin) {
        case .succeed(let token)?: return token
        case .fail(let error)?: throw error
        default: break
        }
        if let authentication { return try await authentication.task.value }
        let run = machine.startRun(.token)
        let task = Task(executorPreference: runtime.executor) {
            try await self.drive(run)
        }
        authentication = (run, task)
        defer { if authentication?.id == run { authentication = nil } }
        return try await task.value
    }

    /// Performs a run's actions until it ends: each attempt is made, and
    /// its answer given back to the machine by the attempt's id.
    func drive(_ run: Int) async throws -> String {
        defer { machine.finish(run) }
        var actions = machine.nextRound(run, now: now, margin: configuration.refreshMargin)
        while true {
            var attempt: SessionMachine.Attempt?
            for action in actions {
                switch action {
                case .succeed(let token): return token
                case .fail(let error): throw error
                case .perform(let next): attempt = next
                default: perform(action)
                }
            }
            guard let attempt else { throw ChatError(.sessionClosed, "The session machine ended a run without an answer") }
            let answer = await answer(to: attempt)
            actions = machine.answered(attempt.id, answer, now: now, margin: configuration.refreshMargin)
        }
    }

    /// Performs what the session machine decided, but a run's attempts and end.
    func perform(_ actions: [SessionMachine.Action]) {
        for action in actions { perform(action) }
    }

    private func perform(_ action: SessionMachine.Action) {
        switch action {
        case .publish(let event):
            publish(event)
        case .tellSessionDelegate(.sessionWasRefreshed):
            sessionDelegate?.sessionWasRefreshed()
        case .tellSessionDelegate(.sessionWasClosed):
            sessionDelegate?.sessionWasClosed()
        case .tellSessionDelegate(.sessionDidHaveError(let error)):
            sessionDelegate?.sessionDidHaveError(error)
        case .learnUser(let user):
            currentUser = ChatUser(user, via: machine.credential?.method ?? .tokens)
        case .signedIn:
            ensureRealtime()
            flushPendingLogouts()
        case .scheduleRefresh(let id, let deadline):
            scheduleProactiveRefresh(id, at: deadline)
        case .cancelRefresh:
            refreshTimer?.cancel()
            refreshTimer = nil
        case .closeRealtime:
            closeRealtime()
        case .clearLocally(let reason):
            clearLocally(reason: reason)
        case .refreshNow, .perform, .succeed, .fail:
            // A run's (`drive`) or the timer's (`scheduleProactiveRefresh`).
            break
        }
    }

    /// Makes an attempt: the provider, the server or a delegate answers.
    private func answer(to attempt: SessionMachine.Attempt) async -> SessionMachine.Answer {
        switch attempt.kind {
        case .provider(let user):
            // The machine asks only when there is one.
            guard let provider else { return .provider(.failed(SessionMachine.noProvider)) }
            do {
                return .provider(.tokens(try await callProvider(provider, user: user)))
            } catch let error as ChatError {
                return .provider(.failed(error))
            } catch is CancellationError {
                return .provider(.cancelled)
            } catch {
                // The app's backend out of reach is the network's failure,
                // classified as the transport classifies its own (D7).
                if let lost = configuration.transport.networkFailure(of: error) {
                    let message = "The token provider could not reach the app's backend: \(lost.message)"
                    return .provider(.failed(ChatError(TransportError(lost.kind, message, retryAfter: lost.retryAfter))))
                }
                return .provider(.failed(ChatError(.providerFailed, "The token provider failed: \(error)")))
            }
        case .signIn(let request, let token):
            return .signIn(await serverAnswer(request, token: token, for: attempt.id))
        case .refresh(let refreshToken):
            return .refresh(await serverAnswer(.refresh(refreshToken: refreshToken), token: nil, for: attempt.id))
        case .sessionDelegate:
            guard let delegate = sessionDelegate else { return .sessionDelegate(.noDelegate) }
            do {
                return .sessionDelegate(try await delegate.renewSessionToken().map { .renewed(sessionToken: $0) } ?? .declined)
            } catch {
                return .sessionDelegate(.failed(error as? ChatError ?? ChatError(.sessionClosed, "The SessionDelegate failed: \(error)")))
            }
        case .authenticationDelegate(let reason):
            guard let delegate = authenticationDelegate else { return .authenticationDelegate(jwt: nil) }
            let userId = machine.userId ?? currentUser?.id ?? ""
            return .authenticationDelegate(jwt: await delegate.onInvalidAuth(userId: userId, reason: reason))
        }
    }

    private func serverAnswer(_ request: WireRequest, token: String?, for attempt: Int) async -> Result<WireResponse, ChatError> {
        do {
            return .success(try await performRaw(request, token: token, for: attempt))
        } catch let error as ChatError {
            return .failure(error)
        } catch {
            return .failure(ChatError(.networkFailure, "\(error)"))
        }
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

    /// Refreshes at `deadline` (A2), unless the session it was set for is
    /// gone by then.
    private func scheduleProactiveRefresh(_ id: Int, at deadline: Instant) {
        refreshTimer?.cancel()
        let runtime = self.runtime
        let kind = WaitKind.lifecycle("refresh \(userId ?? "the user")'s tokens")
        refreshTimer = Task(executorPreference: runtime.executor) {
            do { try await runtime.sleep(until: deadline, kind: kind) } catch { return }
            guard await self.refreshTimerFired(id) else { return }
            _ = try? await self.accessToken(forceRefresh: true)
        }
    }

    private func refreshTimerFired(_ id: Int) -> Bool {
        machine.refreshTimerFired(id).contains(.refreshNow)
    }
}
