import ChatBackend
import ChatCore
import ChatSDK
import Synchronization

/// A `SessionTokenProvider` that plays the app's own backend: it asks the
/// backend to mint tokens for the user (the embedded one, or a server's
/// through `issue`), or misbehaves on purpose.
public final class SimulatedTokenProvider: SessionTokenProvider {
    /// How the provider answers.
    package enum Mode: Sendable, Hashable, CustomStringConvertible {
        case ok
        /// Throws.
        case fail
        /// Cannot reach the app's backend: throws the network's failure (a
        /// refused connection), as a provider asking it over HTTP does.
        case unreachable
        /// Returns strings that are not tokens.
        case malformed
        /// Returns tokens that expired an hour ago.
        case expired
        /// Answers correctly after this long (work in flight).
        case delay(Duration)

        package var description: String {
            switch self {
            case .ok: "ok"
            case .fail: "fail"
            case .unreachable: "unreachable"
            case .malformed: "malformed"
            case .expired: "expired"
            case .delay(let duration): "delay \(duration.wholeMilliseconds)ms"
            }
        }
    }

    package struct ProviderFailure: Error, CustomStringConvertible {
        package var description: String { "the app's backend refused to mint tokens" }
    }

    /// How the app's backend mints tokens.
    package enum Issuer: Sendable {
        /// In the same process, at once (no suspension: the embedded world's
        /// order of events stays what it was).
        case immediate(@Sendable (String) throws -> TokenPair)
        /// Over the network.
        case remote(@Sendable (String) async throws -> TokenPair)
    }

    private let runtime: any TracingRuntime
    private let issuer: Issuer
    private let state = Mutex<(mode: Mode, calls: Int)>((.ok, 0))

    /// A provider asking the embedded world's backend.
    public convenience init(world: World, apiKey: String = World.apiKey) {
        let backend = world.backend
        self.init(runtime: world, issuer: .immediate { userId in try backend.issueTokens(apiKey: apiKey, userId: userId) })
    }

    /// A provider whose tokens come from `issuer` (the app's backend), on `runtime`'s clock.
    package init(runtime: any TracingRuntime, issuer: Issuer) {
        self.runtime = runtime
        self.issuer = issuer
    }

    package var mode: Mode {
        get { state.withLock { $0.mode } }
        set { state.withLock { $0.mode = newValue } }
    }

    /// Times the SDK asked for tokens.
    package var calls: Int { state.withLock { $0.calls } }

    private func issue(_ userId: String) async throws -> TokenPair {
        switch issuer {
        case .immediate(let issue): try issue(userId)
        case .remote(let issue): try await issue(userId)
        }
    }

    /// Tokens as the provider's mode has them (the wire's pair, as the app's backend mints it).
    public func provideTokens(forUserId userId: String) async throws -> ChatTokens {
        ChatTokens(try await providePair(forUserId: userId))
    }

    private func providePair(forUserId userId: String) async throws -> TokenPair {
        let mode = state.withLock { s in
            s.calls += 1
            return s.mode
        }
        runtime.trace("provider", "asked for tokens of \(userId) (\(mode))")
        switch mode {
        case .ok:
            switch issuer {
            case .immediate(let issue): return try issue(userId)
            case .remote(let issue): return try await issue(userId)
            }
        case .fail:
            throw ProviderFailure()
        case .unreachable:
            throw TransportError(.refused, "the app's backend could not be reached (connection refused)")
        case .malformed:
            return TokenPair(
                accessToken: "not a token", accessExpiresAt: runtime.now + .seconds(3600),
                refreshToken: "", refreshExpiresAt: runtime.now + .seconds(3600))
        case .expired:
            var pair = try await issue(userId)
            pair.accessExpiresAt = runtime.now - .seconds(3600)
            pair.refreshExpiresAt = runtime.now - .seconds(3600)
            return pair
        case .delay(let duration):
            try await runtime.sleep(for: duration, kind: .inFlight)
            return try await issue(userId)
        }
    }
}
