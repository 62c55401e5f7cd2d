package import ChatCore

/// Told what crosses a network at its transport boundary, as it crosses:
/// each request and its answer (failed on the way or not), each event
/// stream's opening, frames both ways and close. The workbench records it
/// (the traffic of a session); what it is told is in clear.
package protocol WireObserver: Sendable {
    /// A request leaves its device; returns the number its answer shares.
    func request(_ envelope: WireEnvelope) -> Int
    /// The answer to request `exchange` reaches its device (or it failed).
    func answer(_ result: Result<WireResponse, any Error>, deviceId: String, exchange: Int)
    /// A device asks to open an event stream; returns the number its frames share.
    func opening(_ request: RealtimeRequest) -> Int
    /// The stream opened (success) or was refused.
    func opened(_ result: Result<Void, any Error>, deviceId: String, exchange: Int)
    /// A frame of stream `exchange` reaches its device: an event or the server's close.
    func signal(_ signal: RealtimeSignal, deviceId: String, exchange: Int)
    /// The device closed stream `exchange`.
    func closedByClient(deviceId: String, exchange: Int)
}

extension WireObserver {
    /// Tells the observer the answer to request `exchange` and gives it back.
    package func answered(_ response: WireResponse, to envelope: WireEnvelope, exchange: Int) -> WireResponse {
        answer(.success(response), deviceId: envelope.deviceId, exchange: exchange)
        return response
    }

    /// Tells the observer request `exchange` failed and gives the error back, to throw.
    package func failed(_ error: any Error, for envelope: WireEnvelope, exchange: Int) -> any Error {
        answer(.failure(error), deviceId: envelope.deviceId, exchange: exchange)
        return error
    }
}
