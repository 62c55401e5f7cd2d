internal import ChatCore

extension SessionMachine {
    /// The answer to attempt `id`. An answer no run waits for (the user was
    /// cleared or set again meanwhile) changes nothing: its run's callers
    /// fail, with the error the answer itself says when it is one.
    mutating func answered(_ id: Int, _ answer: Answer, now: Instant, margin: Duration) -> [Action] {
        guard let (run, kind) = takeAttempt(id) else { return [.fail(Self.late(answer))] }
        // No attempt starts while the session is closed: this one was under
        // way when it closed, and a closed session does not come back by
        // itself, even with good tokens (A15).
        if case .closed(let reason) = state {
            return finish(run, .fail(ChatError(.sessionClosed, "The session was closed (\(reason)): set the user or log in again")))
        }
        switch (kind, answer) {
        case (.provider(let user), .provider(let answer)):
            return providerAnswered(run, user: user, answer, now: now, margin: margin)
        case (.signIn, .signIn(let result)):
            return signInAnswered(run, result, now: now, margin: margin)
        case (.refresh, .refresh(let result)):
            return refreshAnswered(run, result, now: now, margin: margin)
        case (.sessionDelegate, .sessionDelegate(let renewal)):
            return renewalAnswered(run, renewal, now: now, margin: margin)
        case (.authenticationDelegate(let error), .authenticationDelegate(let jwt)):
            guard let jwt else {
                // No new JWT: the user is logged out implicitly (A6).
                return [.clearLocally(reason: "expiredJWT")] + finish(run, .fail(error))
            }
            handle(.credentialRenewed(.jwt(jwt)))
            return nextRound(run, now: now, margin: margin)
        default:
            return finish(run, .fail(ChatError(.networkFailure, "An answer of another kind than the attempt")))
        }
    }

    /// The error a late answer ends its run with: what a sign-in that
    /// could not go out or was cancelled says, or that the user changed.
    static func late(_ answer: Answer) -> ChatError {
        switch answer {
        case .provider(.cancelled):
            return providerCancelled
        case .signIn(.failure(let error)) where error.code.isRetryable || error.code == .userCleared:
            return error
        default:
            return userChanged
        }
    }

    static let providerCancelled = ChatError(.userCleared, "The user was cleared while the provider was asked")

    private mutating func providerAnswered(
        _ run: Int, user: String, _ answer: ProviderAnswer, now: Instant, margin: Duration
    ) -> [Action] {
        switch answer {
        case .cancelled:
            return finish(run, .fail(Self.providerCancelled))
        case .failed(let error) where error.code.isRetryable:
            // The provider could not reach the app's backend (D7): not a
            // refusal, the app has nothing to give; the session says so as
            // for a sign-in the network lost, and the next need asks again.
            return changes(.signInAborted) + finish(run, .fail(error))
        case .failed(let error):
            return changes(.needsCredentials(reason: error.code.rawValue)) + finish(run, .fail(error))
        case .tokens(let pair):
            if let problem = Self.problem(with: pair, now: now) {
                return changes(.needsCredentials(reason: problem.code.rawValue)) + finish(run, .fail(problem))
            }
            return changes(.signedIn(userId: user, tokens: pair)) + signedIn(now: now, margin: margin)
                + finish(run, .succeed(accessToken: pair.accessToken))
        }
    }

    private mutating func signInAnswered(
        _ run: Int, _ result: Result<WireResponse, ChatError>, now: Instant, margin: Duration
    ) -> [Action] {
        let error: ChatError
        switch result {
        case .success(.session(let pair, let user, _)):
            return [.learnUser(user)] + changes(.signedIn(userId: user.id, tokens: pair)) + signedIn(now: now, margin: margin)
                + finish(run, .succeed(accessToken: pair.accessToken))
        case .success:
            error = ChatError(.networkFailure, "Unexpected answer to sign-in")
        case .failure(let failure):
            error = failure
        }
        switch error.code {
        case .expiredJWT:
            return [.publish(.authenticationFailed(error)), attempt(.authenticationDelegate(after: error), for: run)]
        case .expiredSessionToken:
            return [attempt(.sessionDelegate, for: run)]
        case let code where code.isRetryable:
            // The network's failure (D7), not a refusal: nothing in flight
            // any more, and the session says so (it is not authenticating
            // while the device is offline).
            return changes(.signInAborted) + finish(run, .fail(error))
        case .userCleared:
            return finish(run, .fail(error))
        default:
            return [.publish(.authenticationFailed(error))] + changes(.closed(reason: error.code.rawValue)) + finish(run, .fail(error))
        }
    }

    private mutating func refreshAnswered(
        _ run: Int, _ result: Result<WireResponse, ChatError>, now: Instant, margin: Duration
    ) -> [Action] {
        let error: ChatError
        switch result {
        case .success(.tokens(let pair)):
            return changes(.refreshed(pair)) + signedIn(now: now, margin: margin) + finish(run, .succeed(accessToken: pair.accessToken))
        case .success:
            error = ChatError(.networkFailure, "Unexpected answer to refresh")
        case .failure(let failure):
            error = failure
        }
        switch error.code {
        case .invalidRefreshToken, .expiredRefreshToken:
            // Sign in again with the credential.
            return changes(.refreshRefused) + nextRound(run, now: now, margin: margin)
        case .expiredSessionToken:
            return changes(.refreshRefused) + [attempt(.sessionDelegate, for: run)]
        default:
            // The tokens held stay, and so does the session.
            return changes(.refreshAborted) + finish(run, .fail(error))
        }
    }

    /// The `SessionDelegate`'s answer (A10): a new session token signs in
    /// again; a refusal closes the session; a failure needs the app.
    private mutating func renewalAnswered(_ run: Int, _ renewal: Renewal, now: Instant, margin: Duration) -> [Action] {
        switch renewal {
        case .renewed(let token):
            // An authorized user stays authorized, with the new token (A12).
            handle(.credentialRenewed(credential?.renewed(sessionToken: token) ?? .sessionToken(token)))
            noteRenewal()
            return nextRound(run, now: now, margin: margin)
        case .declined:
            return changes(.closed(reason: "sessionWasClosed")) + [.publish(.sessionWasClosed), .tellSessionDelegate(.sessionWasClosed)]
                + finish(run, .fail(ChatError(.sessionClosed, "The SessionDelegate declined to renew the session")))
        case .noDelegate:
            return changes(.closed(reason: "sessionWasClosed")) + [.publish(.sessionWasClosed)]
                + finish(run, .fail(ChatError(.sessionClosed, "The session token expired and no SessionDelegate renews it")))
        case .failed(let error):
            return changes(.needsCredentials(reason: "sessionDidHaveError"))
                + [.publish(.sessionDidHaveError(error)), .tellSessionDelegate(.sessionDidHaveError(error))] + finish(run, .fail(error))
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
}
