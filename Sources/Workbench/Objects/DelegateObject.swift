import ChatBackend
import ChatCore
import ChatSDK
import ChatSimulation
import Foundation
import Synchronization

/// The workbench's authentication and session delegate (A6, A10): it plays
/// the app, asking its backend for a new JWT or session token, or declining.
final class WorkbenchDelegate: AuthenticationDelegate, SessionDelegate, Inspectable, Sendable {
    // `mode`, `calls` and `userId` sit behind a lock: the SDK calls the
    // delegate from the world's tasks; the interpreter reads them between steps.
    /// `fail`: the app's backend cannot be reached; a renewal throws
    /// (the session delegate's error path, `sessionDidHaveError`).
    enum Mode: String, Sendable { case renew, decline, fail, none }

    /// What a renewal in mode `fail` throws.
    struct BackendUnreachable: Error, CustomStringConvertible {
        var description: String { "the app's backend could not be reached (delegate fail)" }
    }

    private let state = Mutex<(mode: Mode, calls: Int, userId: String?)>((.none, 0, nil))
    let world: any Stage
    let apiKey: String

    init(world: any Stage, apiKey: String) {
        self.world = world
        self.apiKey = apiKey
    }

    var mode: Mode {
        get { state.withLock { $0.mode } }
        set { state.withLock { $0.mode = newValue } }
    }
    var calls: Int { state.withLock { $0.calls } }
    var userId: String? {
        get { state.withLock { $0.userId } }
        set { state.withLock { $0.userId = newValue } }
    }

    private func ask(_ what: String) -> (Mode, String?) {
        let (mode, user) = state.withLock { s in
            s.calls += 1
            return (s.mode, s.userId)
        }
        world.trace("delegate", "asked for \(what) (\(mode.rawValue))")
        return (mode, user)
    }

    func onInvalidAuth() async -> String? {
        let (mode, user) = ask("a new JWT")
        guard mode == .renew, let user else { return nil }
        return AppJWTFactory.sign(userId: user, expiresIn: .seconds(3600), secret: world.app.secret, world: world)
    }

    nonisolated(nonsending) func renewSessionToken() async throws -> String? {
        let (mode, user) = ask("a new session token")
        if mode == .fail { throw BackendUnreachable() }
        guard mode == .renew, let user else { return nil }
        return try world.server.issueSessionToken(userId: user, ttl: nil).token
    }

    // MARK: Inspectable

    var handle: String { "delegate" }
    let fieldNames = ["mode", "calls"]

    func field(_ name: String, argument: String?, in scope: any InspectionScope) throws(ScriptError) -> Resolved? {
        switch name {
        case "mode": .value(.string(mode.rawValue))
        case "calls": .value(.int(Int64(calls)))
        default: nil
        }
    }

    func summary(in scope: any InspectionScope) -> String {
        "delegate: \(mode.rawValue), asked \(calls) time\(calls == 1 ? "" : "s")"
    }
}

/// Signs JWTs as the app's backend would (HS256, the app's secret), or as
/// one that gets it wrong would (SPEC A5): a claim left out, another
/// algorithm, a `nbf` in the future.
enum AppJWTFactory {
    static func sign(
        userId: String, expiresIn: Duration, name: String? = nil, email: String? = nil,
        secret: String, world: any ChatRuntime
    ) -> String {
        sign(userId: userId, expiresIn: expiresIn, name: name, email: email, secret: secret, world: world, flaws: Flaws())
    }

    /// What a JWT gets wrong: the defaults get nothing wrong.
    struct Flaws: Equatable {
        var noExp = false
        var noExternalId = false
        /// `HS256` (right), `HS384` or `none`.
        var algorithm = "HS256"
        /// `nbf` this long after now.
        var notBefore: Duration?
    }

    static func sign(
        userId: String, expiresIn: Duration, name: String?, email: String?, secret: String, world: any ChatRuntime, flaws: Flaws
    ) -> String {
        func date(_ instant: Instant) -> Date { Date(timeIntervalSince1970: Double(instant.milliseconds) / 1000) }
        let claims = AppJWT.Claims(
            externalId: flaws.noExternalId ? nil : userId, name: name, email: email,
            exp: flaws.noExp ? nil : date(world.now + expiresIn), iat: date(world.now),
            nbf: flaws.notBefore.map { date(world.now + $0) })
        return AppJWT.sign(claims, secret: secret, algorithm: flaws.algorithm)
    }
}
