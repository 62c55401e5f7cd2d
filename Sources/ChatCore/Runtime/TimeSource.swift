import Foundation

/// Where a runtime reads the time: the embedded world's virtual clock, or
/// the system clock. The one clock abstraction of the package: the SDK's
/// runtimes and the backend's environment are built from one.
///
/// ```swift
/// let virtual = TimeSource { scheduler.now }
/// let real = TimeSource.system
/// ```
package struct TimeSource: Sendable {
    private let read: @Sendable () -> Instant

    /// A clock that reads the time from `now`.
    package init(_ now: @escaping @Sendable () -> Instant) { read = now }

    /// The current time.
    package var now: Instant { read() }

    /// The system clock, in whole milliseconds.
    package static let system = TimeSource {
        Instant(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    }

    /// A clock that never jumps: whole milliseconds on the system's
    /// continuous clock (`ContinuousClock`: `CLOCK_BOOTTIME` on Linux,
    /// `mach_continuous_time` on Apple platforms, which keep counting while
    /// the device sleeps), since the first time it is read in the process.
    /// Setting the date, NTP or a time zone does not move it: what a
    /// runtime on the ``system`` clock gives as its
    /// ``ChatRuntime/monotonicClock``, to measure how long passed between
    /// two moments (the flight recorder's `monotonic_time`). Only the
    /// difference between two readings means anything.
    package static let monotonic: TimeSource = {
        let origin = ContinuousClock.now
        return TimeSource { Instant(milliseconds: (ContinuousClock.now - origin).wholeMilliseconds) }
    }()
}

extension TimeSource {
    /// Sleeps in real time until the system clock reads `deadline` (not at
    /// all when it already has). Throws `CancellationError` when cancelled.
    package static func sleepOnSystemClock(until deadline: Instant) async throws {
        let remaining = deadline.milliseconds - system.now.milliseconds
        if remaining > 0 {
            try await Task.sleep(for: .milliseconds(remaining))
        } else {
            try Task.checkCancellation()
        }
    }
}
