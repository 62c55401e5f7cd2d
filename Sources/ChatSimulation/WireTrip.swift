import ChatSDK
import Synchronization

/// Where a request that the network is cut under is lost (`net offline
/// --in-flight`, `net drop --in-flight`, issue 29).
package enum CutPoint: String, Sendable, Hashable, CaseIterable {
    /// Before it reached the server: the server never does it.
    case beforeCommit = "before-commit"
    /// After the server did it: its answer is lost (the case that makes
    /// duplicates, unless the resend is de-duplicated).
    case afterCommit = "after-commit"
}

/// One request on the wire of the embedded world, from the moment it leaves
/// its client until its answer is back: what a cut of the network with
/// `--in-flight` loses, before or after the server commits it.
///
/// The ``FaultInjectingTransport`` makes one for each request it carries
/// and registers it with its ``NetworkConditions``; each leg of the trip
/// waits with ``World/sleep(until:kind:trip:)``, which a cut ends at once.
package final class WireTrip: Sendable {
    /// How a cut ended the trip, thrown from the leg it ended.
    package struct Cut: Error, Sendable, Hashable {
        /// Where the request was lost: the cut's choice, or after the
        /// commit when the server had already done it.
        package let fate: CutPoint
        /// The verb that cut it (`net offline`).
        package let cause: String

        /// How the client sees it: the connection lost, as a real transport
        /// says it (`reset`, which the SDK retries, D7).
        package var error: TransportError {
            switch fate {
            case .beforeCommit: TransportError(.reset, "The connection was lost before the request reached the server (\(cause))")
            case .afterCommit: TransportError(.reset, "The connection was lost before the server's answer came (\(cause))")
            }
        }
    }

    private struct State {
        var arrived = false
        var cut: Cut?
        var wake: (@Sendable (Cut) -> Void)?
    }

    /// The request's name (`sendMessage`).
    package let name: String
    /// The device that sent it.
    package let device: String?
    private let state = Mutex(State())

    package init(name: String, device: String?) {
        self.name = name
        self.device = device
    }

    /// The request reaches the server: a cut from now on loses its answer,
    /// whatever the cut chose.
    package func arrive() { state.withLock { $0.arrived = true } }

    /// Cuts the trip at `point` (after the commit when the request already
    /// arrived) and wakes the leg waiting; returns where it was lost, or nil
    /// when it was already cut.
    @discardableResult
    package func cut(at point: CutPoint, cause: String) -> CutPoint? {
        let (cut, wake) = state.withLock { s -> (Cut?, (@Sendable (Cut) -> Void)?) in
            guard s.cut == nil else { return (nil, nil) }
            let cut = Cut(fate: s.arrived ? .afterCommit : point, cause: cause)
            s.cut = cut
            defer { s.wake = nil }
            return (cut, s.wake)
        }
        if let cut { wake?(cut) }
        return cut?.fate
    }

    /// The cut, if there was one.
    package var cutSoFar: Cut? { state.withLock { $0.cut } }

    /// While a leg waits, `wake` is called when the trip is cut; returns the
    /// cut instead (and keeps nothing) when it already was.
    package func waiting(_ wake: @escaping @Sendable (Cut) -> Void) -> Cut? {
        state.withLock { s in
            if let cut = s.cut { return cut }
            s.wake = wake
            return nil
        }
    }

    /// The leg is over: nothing is woken any more.
    package func stopWaiting() { state.withLock { $0.wake = nil } }
}
