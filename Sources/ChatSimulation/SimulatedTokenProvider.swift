import ChatCore
import ChatBackend
import ChatSDK
import Synchronization

/// A `SessionTokenProvider` that plays the app's own backend: it asks the
/// embedded backend to mint tokens for the user, or misbehaves on purpose.
public final class SimulatedTokenProvider: SessionTokenProvider {
    /// How the provider answers.
    public enum Mode: Sendable, Hashable, CustomStringConvertible {
        case ok
        /// Throws.
        case fail
        /// Returns strings that are not tokens.
        case malformed
        /// Returns tokens that expired an hour ago.
        case expired
        /// Answers correctly after this long (work in flight).
        case delay(Duration)

        public var description: String {
            switch self {
            case .ok: "ok"
            case .fail: "fail"
            case .malformed: "malformed"
            case .expired: "expired"
            case .delay(let duration): "delay \(duration.wholeMilliseconds)ms"
            }
        }
    }

    public struct ProviderFailure: Error, CustomStringConvertible {
        public var description: String { "the app's backend refused to mint tokens" }
    }

    private let world: World
    private let apiKey: String
    private let state = Mutex<(mode: Mode, calls: Int)>((.ok, 0))

    public init(world: World, apiKey: String = World.apiKey) {
        self.world = world
        self.apiKey = apiKey
    }

    public var mode: Mode {
        get { state.withLock { $0.mode } }
        set { state.withLock { $0.mode = newValue } }
    }

    /// Times the SDK asked for tokens.
    public var calls: Int { state.withLock { $0.calls } }

    public func provideTokens(forUserId userId: String) async throws -> TokenPair {
        let mode = state.withLock { s in
            s.calls += 1
            return s.mode
        }
        world.trace("provider", "asked for tokens of \(userId) (\(mode))")
        switch mode {
        case .ok:
            return try world.backend.issueTokens(apiKey: apiKey, userId: userId)
        case .fail:
            throw ProviderFailure()
        case .malformed:
            return TokenPair(accessToken: "not a token", accessExpiresAt: world.now + .seconds(3600),
                             refreshToken: "", refreshExpiresAt: world.now + .seconds(3600))
        case .expired:
            var pair = try world.backend.issueTokens(apiKey: apiKey, userId: userId)
            pair.accessExpiresAt = world.now - .seconds(3600)
            pair.refreshExpiresAt = world.now - .seconds(3600)
            return pair
        case .delay(let duration):
            try await world.sleep(for: duration, kind: .inFlight)
            return try world.backend.issueTokens(apiKey: apiKey, userId: userId)
        }
    }
}
