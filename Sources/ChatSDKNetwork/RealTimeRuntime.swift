package import ChatCore
import Dispatch

/// The runtime of a client talking to a real server: real time, a serial
/// queue for the client's actors, system randomness. An app gets one as
/// `ChatClient.Runtime.realTime()`.
package final class RealTimeRuntime: ChatRuntime, Sendable {
    private let queueExecutor: QueueExecutor

    /// A runtime whose executor is a new serial dispatch queue named `label`.
    package init(label: String = "chatbench.client") {
        queueExecutor = QueueExecutor(label: label)
    }

    package var executor: any SerialExecutor & TaskExecutor { queueExecutor }

    /// The system clock, in milliseconds.
    package let clock = TimeSource.system

    /// The system's continuous clock, which setting the date does not move.
    package let monotonicClock = TimeSource.monotonic

    /// The system's random generator; identifiers end with 16 hex digits.
    package let random = RandomSource.system(idDigits: 16)

    /// Sleeps in real time until `deadline` (whatever `kind`: nothing here is virtual).
    package func sleep(until deadline: Instant, kind: WaitKind) async throws {
        try await TimeSource.sleepOnSystemClock(until: deadline)
    }
}

/// A serial executor (for actors) that is also a task executor (for the
/// tasks the SDK spawns), running jobs one at a time on a dispatch queue.
final class QueueExecutor: SerialExecutor, TaskExecutor, Sendable {
    let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async {
            job.runSynchronously(isolatedTo: self.asUnownedSerialExecutor(), taskExecutor: self.asUnownedTaskExecutor())
        }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }

    func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }
}
