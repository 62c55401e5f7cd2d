import Synchronization

/// The one executor of the embedded world: a FIFO queue of jobs that the
/// simulation runs, one at a time, on the thread that pumps it.
///
/// Every actor of an SDK client (and every task the SDK or the workbench
/// spawns) runs here, so the order of everything is decided by this queue
/// alone, never by the Swift thread pool.
public final class SimulationExecutor: SerialExecutor, TaskExecutor, Sendable {
    private let queue = Mutex<[UnownedJob]>([])
    private let interruption: Interruption
    /// Told after each job is queued (a test kit's driver, which then runs
    /// the world); nil for the workbench, which runs it itself.
    private let wake = Mutex<(@Sendable () -> Void)?>(nil)

    package init(interruption: Interruption = .shared) {
        self.interruption = interruption
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.withLock { $0.append(job) }
        wake.withLock { $0 }?()
    }

    /// Calls `wake` after each job is queued, from the thread that queued it.
    package func onEnqueue(_ wake: @escaping @Sendable () -> Void) { self.wake.withLock { $0 = wake } }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    public func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }

    /// Whether a job is waiting to run.
    package var hasWork: Bool { queue.withLock { !$0.isEmpty } }

    /// Runs jobs until none is left; returns how many ran.
    @discardableResult
    public func drain() -> Int {
        var count = 0
        var batch: [UnownedJob] = []
        while !interruption.isRequested {
            queue.withLock { swap(&batch, &$0) }
            if batch.isEmpty { return count }
            for job in batch {
                job.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
            }
            count += batch.count
            batch.removeAll(keepingCapacity: true)
        }
        return count
    }
}
