import ChatCore
import ChatSDK
import ChatSimulation
import ChatTestSupport
import Foundation
import Synchronization

@testable import Workbench

/// A transport that answers from a script after 10 ms each way: pages for
/// listings, `expiredToken` for sends, offline for typing; an event stream
/// whose frames a test pushes, refused with `invalidToken` after seq 99.
final class ScriptedTransport: ChatTransport {
    let runtime: any ChatRuntime
    let streams = Locked<[AsyncStream<RealtimeSignal>.Continuation]>([])
    let closes = Locked(0)

    init(runtime: any ChatRuntime) { self.runtime = runtime }

    static let page = WireResponse.conversations(WirePage(elements: [], nextCursor: nil))

    func perform(_ envelope: WireEnvelope) async throws -> WireResponse {
        try await runtime.sleep(for: .milliseconds(10), kind: .inFlight)
        try await runtime.sleep(for: .milliseconds(10), kind: .inFlight)
        switch envelope.request {
        case .listConversations: return Self.page
        case .sendMessage: throw WireError(.expiredToken)
        case .setTyping: throw TransportError(.offline, "The device is offline")
        case .refresh:
            return .tokens(
                TokenPair(
                    accessToken: "at_freshfreshfresh", accessExpiresAt: runtime.now + .seconds(60),
                    refreshToken: "rt_freshfreshfresh", refreshExpiresAt: runtime.now + .seconds(600)))
        default: return .ok
        }
    }

    func openRealtime(_ request: RealtimeRequest) async throws -> RealtimeConnection {
        try await runtime.sleep(for: .milliseconds(10), kind: .inFlight)
        if request.afterUserSeq == 99 { throw WireError(.invalidToken) }
        let (stream, continuation) = AsyncStream<RealtimeSignal>.makeStream()
        streams.append(continuation)
        let closes = self.closes
        return RealtimeConnection(
            signals: stream,
            close: {
                closes.withLock { $0 += 1 }
                continuation.finish()
            })
    }
}

/// The world's executor and clock with randomness of its own, as a client
/// of a real server has: the ids a client makes do not depend on what the
/// backend and the network drew, which a tape replay does not draw again.
final class ClientRuntime: ChatRuntime {
    let world: World
    let random: RandomSource

    init(world: World, seed: UInt64) {
        self.world = world
        random = RandomSource(seed: seed)
    }

    var executor: any SerialExecutor & TaskExecutor { world.executor }
    var clock: TimeSource { world.clock }
    func sleep(until deadline: Instant, kind: WaitKind) async throws { try await world.sleep(until: deadline, kind: kind) }
    func trace(_ trace: Trace) { world.trace(trace) }
}

/// A message event for the tape tests.
func event(_ seq: Int64, _ text: String) -> WireEvent {
    WireEvent(
        userSeq: seq,
        kind: .messageCreated(
            WireMessage(
                id: "m-\(seq)", conversationId: "c-1", seq: seq, author: .provider(name: "agent"), content: .text(text), replyTo: nil,
                createdAt: .simulationEpoch)))
}

func envelope(_ request: WireRequest, token: String? = "at_secretsecret1", device: String = "alice-device") -> WireEnvelope {
    WireEnvelope(apiKey: "demo-key", accessToken: token, deviceId: device, request: request)
}

/// `ok <response>`, or the error thrown, as text.
func outcome(_ body: () async throws -> WireResponse) async -> String {
    do {
        return "ok \(try await body().tapeName)"
    } catch {
        return "\(error)"
    }
}
