import ChatCore
import Testing

@testable import ChatSDK

/// A session machine driven by hand, as `ClientCore` drives it, and its
/// actions written as short lines (ids left out), so that tests read as
/// tables.
struct SessionDriver {
    static let t0 = Instant(milliseconds: 1_000_000)
    static let margin = Duration.seconds(30)

    var machine: SessionMachine
    /// The attempt the last actions asked for, by the run that waits for it.
    var attempts: [Int: SessionMachine.Attempt] = [:]

    init(hasProvider: Bool = true) {
        machine = SessionMachine(hasProvider: hasProvider)
    }

    static func tokens(_ tag: String, access: Duration = .seconds(3600), refresh: Duration = .seconds(86_400)) -> TokenPair {
        TokenPair(
            accessToken: "at_\(tag)_token", accessExpiresAt: t0 + access, refreshToken: "rt_\(tag)_token", refreshExpiresAt: t0 + refresh)
    }

    static func session(_ user: String, _ tag: String) -> WireResponse {
        .session(tokens: tokens(tag), user: WireUser(id: user, isAnonymous: false, authenticationType: .jwt), mergedConversationIds: [])
    }

    /// A run starts and takes its first round.
    mutating func start(_ purpose: SessionMachine.Run.Purpose = .token, at now: Instant = t0) -> (run: Int, actions: [String]) {
        let run = machine.startRun(purpose)
        return (run, record(run, machine.nextRound(run, now: now, margin: Self.margin)))
    }

    /// The answer to the attempt `run` waits for.
    mutating func answer(_ run: Int, _ answer: SessionMachine.Answer, at now: Instant = t0) -> [String] {
        guard let attempt = attempts[run] else { return ["no attempt pending"] }
        return record(run, machine.answered(attempt.id, answer, now: now, margin: Self.margin))
    }

    /// `user` is set with `credential`, and a run's first sign-in is
    /// refused with `code`: the run, waiting for a delegate.
    mutating func refusedSignIn(_ user: String, _ credential: Credential, _ code: ChatError.Code) -> Int {
        _ = identify(user, credential)
        let run = start().run
        _ = answer(run, .signIn(.failure(ChatError(code, "old"))))
        return run
    }

    mutating func identify(_ user: String?, _ credential: Credential) -> [String] {
        Self.describe(machine.identify(userId: user, credential: credential))
    }

    mutating func clear() -> [String] {
        Self.describe(machine.clear())
    }

    private mutating func record(_ run: Int, _ actions: [SessionMachine.Action]) -> [String] {
        for case .perform(let attempt) in actions { attempts[run] = attempt }
        return Self.describe(actions)
    }

    static func describe(_ actions: [SessionMachine.Action]) -> [String] {
        actions.map(describe)
    }

    static func describe(_ action: SessionMachine.Action) -> String {
        switch action {
        case .publish(.sessionChanged(let state)): "state \(state)"
        case .publish(.authenticationFailed(let error)): "event authenticationFailed(\(error.code))"
        case .publish(.sessionDidHaveError(let error)): "event sessionDidHaveError(\(error.code))"
        case .publish(let event): "event \(event)"
        case .tellSessionDelegate(.sessionDidHaveError(let error)): "tell sessionDidHaveError(\(error.code))"
        case .tellSessionDelegate(let note): "tell \(note)"
        case .perform(let attempt):
            switch attempt.kind {
            case .provider(let user): "ask provider for \(user)"
            case .signIn(let request, let token): "send \(request)" + (token.map { " carrying \($0)" } ?? "")
            case .refresh(let refreshToken): "send refresh(\(refreshToken))"
            case .sessionDelegate: "ask session delegate"
            case .authenticationDelegate(let error): "ask authentication delegate after \(error.code)"
            }
        case .learnUser(let user): "learn user \(user.id)"
        case .signedIn: "signed in"
        case .scheduleRefresh(_, let at): "refresh at +\((at.milliseconds - t0.milliseconds) / 1000)s"
        case .cancelRefresh: "cancel refresh"
        case .closeRealtime: "close realtime"
        case .clearLocally(let reason): "clear locally (\(reason))"
        case .refreshNow: "refresh now"
        case .succeed(let token): "succeed \(token)"
        case .fail(let error): "fail \(error.code)"
        }
    }
}

/// The session states a client can be in, each reached as a network and
/// an app would reach it, with the attempt under way if any.
enum SessionFixture: String, CaseIterable, CustomTestStringConvertible {
    case signedOut, userSet, authenticating, authenticated, refreshing, needsCredentials, closed

    var testDescription: String { rawValue }

    /// The driver in this state (alice, with a token provider), and the run
    /// waiting for an answer in it (authenticating, refreshing).
    var driver: (SessionDriver, run: Int?) {
        var driver = SessionDriver()
        guard self != .signedOut else { return (driver, nil) }
        _ = driver.identify("alice", .provider)
        switch self {
        case .signedOut, .userSet:
            return (driver, nil)
        case .authenticating:
            let run = driver.start().run
            return (driver, run)
        case .authenticated, .refreshing, .closed:
            driver.machine.handle(.signedIn(userId: "alice", tokens: SessionDriver.tokens("1")))
            if self == .closed { _ = driver.machine.end(reason: "invalidToken") }
            guard self == .refreshing else { return (driver, nil) }
            driver.machine.tokenExpired("at_1_token")
            let run = driver.start().run
            return (driver, run)
        case .needsCredentials:
            driver.machine.handle(.needsCredentials(reason: "providerFailed"))
            return (driver, nil)
        }
    }
}
