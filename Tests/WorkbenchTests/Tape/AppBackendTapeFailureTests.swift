import ChatCore
import ChatSDK
import Foundation
import Testing

@testable import Workbench

/// A failed call of the other side is kept on the tape with its cause typed
/// (issue 30): the server's code, or the transport failure's kind, and a
/// `replay --tape` throws what the recording run got.
@Suite struct AppBackendTapeFailureTests {
    private let call = TrafficEntry.Call.issueAccessToken(userId: "alice")

    /// The tape of one call of the other side that failed with `error`.
    private func tape(failingWith error: any Error) throws -> TapeServerSide {
        let failure = AppBackendTape.failure(error)
        let entries = [
            TrafficEntry(
                time: .simulationEpoch, origin: .otherSide, channel: .http, direction: .out, kind: .call(call)),
            TrafficEntry(
                time: .simulationEpoch, origin: .otherSide, channel: .http, direction: .in,
                kind: .answer(failure.outcome), body: try AppBackendTape.encoder.encode(failure)),
        ]
        return TapeServerSide(label: "tape", entries: entries)
    }

    /// A token provider's request that was refused, reset or timed out is
    /// retryable (D7); replayed from the tape it stays so. Before, every
    /// kind but `offline` was kept as `failed`, the one final kind.
    @Test(arguments: [
        TransportError.Kind.offline, .refused, .reset, .timeout, .unavailable, .rateLimited, .failed,
    ])
    func aTransportFailureIsReplayedAsItsKind(_ kind: TransportError.Kind) throws {
        let tape = try tape(failingWith: TransportError(kind, "lost on the way"))
        let error = #expect(throws: TransportError.self) { try tape.issueAccessToken(userId: "alice") }
        #expect(error?.kind == kind)
        #expect(error?.kind.isRetryable == (kind != .failed))
        #expect(error?.message == "lost on the way")
        #expect(tape.divergences.isEmpty)
    }

    @Test func theServersNoIsReplayedAsItsCode() throws {
        let tape = try tape(failingWith: WireError(.unknownUser, "no such user"))
        #expect(throws: WireError(.unknownUser, "no such user")) { try tape.issueAccessToken(userId: "alice") }
    }

    /// How the answer reads on the tape does not change: `error offline`,
    /// `error failed` for any other transport kind, `error CODE`.
    @Test func theOutcomeIsTheTapesAsBefore() {
        #expect(AppBackendTape.failure(TransportError(.offline, "x")).outcome == .offline)
        #expect(AppBackendTape.failure(TransportError(.timeout, "x")).outcome == .failed)
        #expect(AppBackendTape.failure(ScriptError(.badValue, "x")).outcome == .failed)
        #expect(AppBackendTape.failure(WireError(.unknownUser, "x")).outcome == .rejected(code: "unknownUser"))
    }

    /// Rows are `{"code","isTransport","message"}` as before, byte for byte;
    /// a row written before (`failed` for any kind but `offline`) reads as
    /// it did.
    @Test func rowsKeepTheirJSON() throws {
        let rows = [
            #"{"code":"offline","isTransport":true,"message":"The device is offline"}"#,
            #"{"code":"failed","isTransport":true,"message":"connection refused"}"#,
            #"{"code":"unknownUser","isTransport":false,"message":"no such user"}"#,
        ]
        let decoded = try rows.map { try JSONDecoder().decode(AppBackendTape.Failure.self, from: Data($0.utf8)) }
        #expect(decoded.map(\.cause) == [.lost(.offline), .lost(.failed), .rejected(.unknownUser)])
        #expect(try decoded.map { String(decoding: try AppBackendTape.encoder.encode($0), as: UTF8.self) } == rows)
        let timeout = AppBackendTape.failure(TransportError(.timeout, "no answer"))
        #expect(
            String(decoding: try AppBackendTape.encoder.encode(timeout), as: UTF8.self)
                == #"{"code":"timeout","isTransport":true,"message":"no answer"}"#)
    }
}
