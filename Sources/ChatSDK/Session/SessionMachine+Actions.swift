internal import ChatCore

extension SessionMachine {
    /// An authentication under way: rounds of steps until there is an
    /// access token, bounded so that a credential that keeps failing ends
    /// instead of looping.
    struct Run: Sendable, Hashable {
        enum Purpose: Sendable, Hashable {
            /// A usable access token, by whatever step the credential
            /// needs (A1, A2, A5, A10): 4 rounds, then the session closes.
            case token
            /// A login or a connect: sign in with the credential (`request`
            /// until the machine knows a better one), carrying a token (an
            /// anonymous user's, to merge, A8): 3 rounds.
            case login(WireRequest, carrying: String?)
        }

        let purpose: Purpose
        var roundsLeft: Int
        /// The attempt whose answer the run waits for.
        var attempt: Attempt?
    }

    /// Something the client asks outside, and the id its answer comes
    /// back with.
    struct Attempt: Sendable, Hashable {
        enum Kind: Sendable, Hashable {
            /// Ask the app's `SessionTokenProvider` (A1).
            case provider(userId: String)
            /// Send a sign-in request.
            case signIn(WireRequest, carrying: String?)
            /// Send a refresh request (A2).
            case refresh(refreshToken: String)
            /// Ask the `SessionDelegate` for a new session token (A10).
            case sessionDelegate
            /// Ask the `AuthenticationDelegate` for a new JWT after `error` (A6).
            case authenticationDelegate(after: ChatError)
        }

        let id: Int
        let kind: Kind
    }

    /// What the client does for the machine.
    enum Action: Sendable, Hashable {
        /// Publish an event (the session's state, an authentication failure…).
        case publish(ChatEvent)
        /// Tell the app's `SessionDelegate`.
        case tellSessionDelegate(DelegateNote)
        /// Do the attempt, and give its answer back with its id.
        case perform(Attempt)
        /// The user as the server described them at sign-in.
        case learnUser(WireUser)
        /// Signed in or refreshed: the realtime link opens, queued logouts go.
        case signedIn
        /// Run the proactive refresh timer `id` until `at` (replacing any other).
        case scheduleRefresh(id: Int, at: Instant)
        case cancelRefresh
        case closeRealtime
        /// Forget the user on this device (an expired JWT nobody renewed, A6).
        case clearLocally(reason: String)
        /// Refresh the tokens now (the proactive timer fired).
        case refreshNow
        /// The run ends with this access token: its callers resume.
        case succeed(accessToken: String)
        /// The run ends with this error: its callers fail.
        case fail(ChatError)
    }

    enum DelegateNote: Sendable, Hashable {
        case sessionWasRefreshed
        case sessionWasClosed
        case sessionDidHaveError(ChatError)
    }

    /// The answer to an attempt.
    enum Answer: Sendable, Hashable {
        case provider(ProviderAnswer)
        case signIn(Result<WireResponse, ChatError>)
        case refresh(Result<WireResponse, ChatError>)
        case sessionDelegate(Renewal)
        case authenticationDelegate(jwt: String?)
    }

    enum ProviderAnswer: Sendable, Hashable {
        case tokens(TokenPair)
        /// What the provider threw (anything not a `ChatError` is `providerFailed`),
        /// or its timeout.
        case failed(ChatError)
        /// The call was cancelled (the user was cleared).
        case cancelled
    }

    enum Renewal: Sendable, Hashable {
        case renewed(sessionToken: String)
        case declined
        /// What the delegate threw (anything not a `ChatError` is `sessionClosed`).
        case failed(ChatError)
        /// There is no `SessionDelegate`.
        case noDelegate
    }
}
