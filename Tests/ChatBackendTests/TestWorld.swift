import ChatBackend
import ChatCore
import ChatTestSupport
import Synchronization
import Testing

/// A clock that moves only when a test advances it.
final class TestClock: Sendable {
    private let instant = Mutex(Instant.simulationEpoch)
    var now: Instant { instant.withLock { $0 } }
    func advance(_ duration: Duration) { instant.withLock { $0 = $0 + duration } }
}

/// Draws 1, 2, 3…: deterministic identifiers (`c-00000001`, `c-00000002`…).
struct CountingGenerator: RandomNumberGenerator, Sendable {
    private var count: UInt64 = 0
    mutating func next() -> UInt64 {
        count += 1
        return count
    }
}

extension BackendEnvironment {
    /// The time of `clock`, and identifiers that count.
    static func counting(on clock: TestClock) -> BackendEnvironment {
        BackendEnvironment(clock: TimeSource { clock.now }, random: RandomSource(CountingGenerator()))
    }
}

/// Collects what a realtime sink receives.
typealias EventLog = Locked<[WireEvent]>

extension Locked where Value == [WireEvent] {
    convenience init() { self.init([]) }
    var events: [WireEvent] { value }
    var userSeqs: [Int64] { value.map(\.userSeq) }
}

/// A backend with one app ("demo-key") on a test clock, and request helpers.
struct TestWorld {
    static let apiKey = "demo-key"
    let clock = TestClock()
    let backend: Backend

    init(settings: AppSettings = .init()) throws {
        let clock = clock
        backend = try Backend(environment: .counting(on: clock))
        try backend.createApp(apiKey: Self.apiKey, jwtSecret: "test-secret", settings: settings)
    }

    func tokens(_ userId: String) throws -> TokenPair {
        try backend.issueTokens(apiKey: Self.apiKey, userId: userId)
    }

    func handle(_ request: WireRequest, token: String?, apiKey: String = TestWorld.apiKey) -> Result<WireResponse, WireError> {
        backend.handle(WireEnvelope(apiKey: apiKey, accessToken: token, deviceId: "device-1", request: request))
    }

    /// Sends a request that must fail, and returns its error code.
    func errorCode(_ request: WireRequest, token: String?, apiKey: String = TestWorld.apiKey) -> WireError.Code? {
        if case .failure(let error) = handle(request, token: token, apiKey: apiKey) { return error.code }
        return nil
    }

    @discardableResult
    func send(_ text: String, id: String, in conversationId: String, token: String, create: Bool = true) throws -> (
        WireConversation, WireMessage
    ) {
        let response = try handle(
            .sendMessage(
                conversationId: conversationId, createConversation: create ? NewConversation(title: nil) : nil,
                message: NewMessage(id: id, content: .text(text), replyTo: nil)), token: token
        ).get()
        guard case .sent(let conversation, let message) = response else { throw WireError(.internalError, "unexpected \(response)") }
        return (conversation, message)
    }

    func conversationPage(token: String, cursor: String? = nil, limit: Int) throws -> WirePage<WireConversation> {
        let response = try handle(.listConversations(cursor: cursor, limit: limit), token: token).get()
        guard case .conversations(let page) = response else { throw WireError(.internalError, "unexpected \(response)") }
        return page
    }

    func messagePage(_ request: WireRequest, token: String) throws -> WirePage<WireMessage> {
        let response = try handle(request, token: token).get()
        guard case .messages(let page) = response else { throw WireError(.internalError, "unexpected \(response)") }
        return page
    }
}

extension WireMessage {
    var text: String? {
        if case .text(let text) = content { return text }
        return nil
    }
}
