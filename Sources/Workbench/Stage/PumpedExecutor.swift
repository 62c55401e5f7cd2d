import Foundation

/// The executor of server mode: like the embedded world's, a FIFO of jobs
/// that only the workbench's thread runs, so SDK actors, watcher tasks and
/// the interpreter never run at the same time. Unlike it, jobs also arrive
/// from other threads (answers and frames from the network, real timers),
/// so the pumping thread can wait for the next one.
// @unchecked Sendable: `jobs` is read and written only with `condition` locked.
final class PumpedExecutor: SerialExecutor, TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.broadcast()
        condition.unlock()
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }
    func asUnownedTaskExecutor() -> UnownedTaskExecutor { UnownedTaskExecutor(ordinary: self) }

    /// Runs jobs until none is left; returns how many ran.
    @discardableResult
    func drain() -> Int {
        var count = 0
        while true {
            condition.lock()
            let batch = jobs
            jobs.removeAll(keepingCapacity: true)
            condition.unlock()
            if batch.isEmpty { return count }
            for job in batch {
                job.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
            }
            count += batch.count
        }
    }

    /// Waits until a job is queued or `deadline` passes; true when a job is there.
    func waitForWork(until deadline: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while jobs.isEmpty {
            if !condition.wait(until: deadline) { return !jobs.isEmpty }
        }
        return true
    }
}
