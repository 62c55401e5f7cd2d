import Synchronization

/// The one executor of the embedded world: a FIFO queue of jobs that the
/// simulation runs, one at a time, on the thread that pumps it.
///
/// Every actor of an SDK client (and every task the SDK or the workbench
/// spawns) runs here, so the order of everything is decided by this queue
/// alone, never by the Swift thread pool.
public final class SimulationExecutor: SerialExecutor, TaskExecutor, Sendable {
    /// The jobs waiting, and who is told after each job is queued (a test
    /// kit's driver, which then runs the world; nil for the workbench, which
    /// runs it itself): one lock for both, as each job takes it.
    private let queue = Mutex<(jobs: [UnownedJob], wake: (@Sendable () -> Void)?)>(([], nil))
    private let interruption: Interruption

    package init(interruption: Interruption = Interruption()) {
        self.interruption = interruption
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let wake = queue.withLock { queue in
            queue.jobs.append(job)
            return queue.wake
        }
        wake?()
    }

    /// Calls `wake` after each job is queued, from the thread that queued it.
    package func onEnqueue(_ wake: @escaping @Sendable () -> Void) { queue.withLock { $0.wake = wake } }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    public func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }

    /// Whether a job is waiting to run.
    package var hasWork: Bool { queue.withLock { !$0.jobs.isEmpty } }

    /// Runs jobs until none is left; returns how many ran.
    @discardableResult
    public func drain() -> Int {
        var count = 0
        var batch: [UnownedJob] = []
        while !interruption.isRequested {
            queue.withLock { swap(&batch, &$0.jobs) }
            if batch.isEmpty { return count }
            for job in batch {
                job.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
            }
            count += batch.count
            batch.removeAll(keepingCapacity: true)
            interruption.tick()
        }
        return count
    }
}
