/// A request the SDK made in a tape replay that is not the one the tape has
/// there (SPEC W7, `replay --tape`). Secrets are masked on both sides.
package struct TapeDivergence: Sendable, Hashable, CustomStringConvertible {
    /// The step being replayed (or the tape entry's), if known.
    package var step: Int?
    package var deviceId: String
    /// What the SDK asked: `POST /v1/identity {json}`.
    package var sent: String
    /// What the tape has in its place; nil when the tape has nothing more
    /// of that device.
    package var tape: String?

    package init(step: Int?, deviceId: String, sent: String, tape: String?) {
        self.step = step
        self.deviceId = deviceId
        self.sent = sent
        self.tape = tape
    }

    /// `step 3, alice-device: sent GET /v1/conversations?limit=20 {…}; the tape has GET /v1/conversations?limit=10 {…}`.
    package var description: String {
        let step = self.step.map { "step \($0), " } ?? ""
        return "\(step)\(deviceId): sent \(sent); the tape has \(tape ?? "nothing more from this device")"
    }
}
