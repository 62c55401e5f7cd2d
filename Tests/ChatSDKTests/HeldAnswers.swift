import ChatCore
import ChatTestSupport

@testable import ChatSDK

/// Holds the answers to the requests it is told to hold until released:
/// the server has done its part (a send's events reach the client), the
/// answer has not arrived. By default it holds the answers to sends.
final class HeldAnswers: ChatTransport {
    let base: any ChatTransport
    let holds: @Sendable (WireRequest) -> Bool
    let waiting = Locked<[CheckedContinuation<Void, Never>]>([])

    init(
        _ base: any ChatTransport,
        holds: @escaping @Sendable (WireRequest) -> Bool = { if case .sendMessage = $0 { true } else { false } }
    ) {
        self.base = base
        self.holds = holds
    }

    func perform(_ envelope: WireEnvelope) async throws -> WireResponse {
        let response = try await base.perform(envelope)
        if holds(envelope.request) {
            await withCheckedContinuation { continuation in waiting.withLock { $0.append(continuation) } }
        }
        return response
    }

    func openRealtime(_ request: RealtimeRequest) async throws -> RealtimeConnection {
        try await base.openRealtime(request)
    }

    /// How many answers it holds.
    var held: Int { waiting.withLock { $0.count } }

    func release() {
        for continuation in waiting.withLock({ waiting in
            defer { waiting = [] }
            return waiting
        }) { continuation.resume() }
    }
}
