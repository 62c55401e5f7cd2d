import Foundation
import Synchronization
import Workbench

#if canImport(Glibc)
    import Glibc
#endif

/// One `chatbench explore-worker` child process, seen from `explore` or
/// `shrink`: requests (``WorkerRequest``) go to its standard input, answers
/// (``WorkerAnswer``) come back, one a line. A worker runs many runs (one
/// process per job, not per run); when it crashes, the run it was on is
/// reported as a crash and the next request starts a new worker. With a
/// time limit, a worker that has not answered a request within it is
/// killed, and the request hung.
final class ExploreWorker {
    /// How a worker ended in the middle of a request.
    struct Ending {
        /// How: `signal 4 (SIGILL): …Fatal error: …` (what it last wrote
        /// on standard error, a fatal error's message), or for a worker
        /// killed at the time limit `no answer within 60s (killed)`.
        var how: String
        /// Whether it was killed at the time limit (it had hung, or was
        /// slower than the limit allows).
        var hung: Bool
    }

    /// How a request ended.
    enum Outcome {
        case finished([Violation])
        case died(Ending)
    }

    /// How a transcript's shrink trial ended (``TranscriptShrinker``).
    enum TrialOutcome {
        case finished(TranscriptShrinker.Trial)
        /// The worker died in step `step` (nil: before the first), after
        /// the steps before it printed `outputs`.
        case died(Ending, step: Int?, outputs: [[String]])
    }

    private let pid: pid_t
    private let input: Int32
    private let output: Int32
    private let errorFile: String
    private let limit: Duration?
    private var buffer: [UInt8] = []
    private var ended = false

    /// The arguments of the worker for `file` (nil: shrink trials only).
    static func arguments(file: String?, seed: UInt64, faults: String?, noExpects: Bool) -> [String] {
        var arguments = ["explore-worker"] + (file.map { [$0] } ?? []) + ["--seed", String(seed)]
        if let faults { arguments += ["--faults", faults] }
        if noExpects { arguments.append("--no-expects") }
        return arguments
    }

    /// Starts a worker: this same executable with `arguments`; `limit`
    /// is how long it may take to answer a request (nil: no limit).
    init(arguments: [String], limit: Duration? = nil) throws {
        // One worker starts at a time: the pipes of one must not be
        // inherited by another (they are close-on-exec once made), or a
        // worker that crashes would never look ended.
        let (pid, input, output, errorFile) = try Self.starting.withLock { _ in try Self.spawn(arguments) }
        self.pid = pid
        self.input = input
        self.output = output
        self.errorFile = errorFile
        self.limit = limit
    }

    private static let starting = Mutex(())

    private static func spawn(_ arguments: [String]) throws -> (pid_t, input: Int32, output: Int32, errorFile: String) {
        // A worker that died must not take the explorer with it when it is
        // written to: a broken pipe is an error to read, not a signal.
        signal(SIGPIPE, SIG_IGN)
        var toChild: [Int32] = [0, 0]
        var fromChild: [Int32] = [0, 0]
        guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else { throw Self.failure("cannot make a pipe") }
        for fd in toChild + fromChild { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("chatbench-worker-\(UUID().uuidString).err").path
        let errorFD = open(errorFile, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard errorFD >= 0 else { throw Self.failure("cannot create \(errorFile)") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorFD, 2)
        let executable = Self.executable
        var environment = ProcessInfo.processInfo.environment
        // A crash is reported by the explorer; the runtime's backtrace
        // would take seconds and say nothing the saved script does not.
        if environment["SWIFT_BACKTRACE"] == nil { environment["SWIFT_BACKTRACE"] = "enable=no" }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        for pointer in argv + envp { free(pointer) }
        posix_spawn_file_actions_destroy(&actions)
        close(toChild[0])
        close(fromChild[1])
        close(errorFD)
        guard status == 0 else {
            close(toChild[1])
            close(fromChild[0])
            throw Self.failure("cannot start \(executable): \(String(cString: strerror(status)))")
        }
        return (pid, toChild[1], fromChild[0], errorFile)
    }

    deinit { finish() }

    /// Runs run `number` of the worker's file.
    func run(_ number: Int) -> Outcome { request(.run(number: number)) }

    /// Runs `lines` as they are (a shrink trial).
    func check(_ lines: [String]) -> Outcome { request(.check(lines: lines)) }

    private func request(_ request: WorkerRequest) -> Outcome {
        switch exchange(request, progress: { _ in }) {
        case .answered(.finished(let violations)): return .finished(violations)
        case .answered: return .died(Self.unreadable)
        case .died(let ending): return .died(ending)
        }
    }

    /// Runs a transcript's shrink trial: `steps` in a fresh world. The
    /// worker says which step it is on and what each printed, so a crash
    /// says where it happened.
    func trial(_ steps: [TranscriptShrinker.Step]) -> TrialOutcome {
        var progress = TrialProgress.SoFar()
        switch exchange(.trial(steps: steps), progress: { progress.read($0) }) {
        case .answered(.tried(let trial)): return .finished(trial)
        case .answered: return .died(Self.unreadable, step: progress.step, outputs: progress.outputs)
        case .died(let ending): return .died(ending, step: progress.step, outputs: progress.outputs)
        }
    }

    /// A worker whose answer is not one, or not one to its request.
    private static let unreadable = Ending(how: "the worker's answer could not be read", hung: false)

    private enum Exchange {
        /// The answer that ended the request: neither an announcement nor progress.
        case answered(WorkerAnswer)
        case died(Ending)
    }

    /// Sends `request` and reads the worker's answers up to the one that
    /// ends it, its progress before that given to `progress`; past the time
    /// limit, kills the worker.
    private func exchange(_ request: WorkerRequest, progress: (TrialProgress) -> Void) -> Exchange {
        guard !ended else { return .died(Ending(how: "the worker had ended", hung: false)) }
        let deadline = limit.map { ContinuousClock.now + $0 }
        var bytes = Array((request.json + "\n").utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeMutableBytes { write(input, $0.baseAddress! + sent, $0.count - sent) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return .died(died()) }
            sent += n
        }
        bytes = []
        while true {
            switch readLine(by: deadline) {
            case .line(let line):
                let answer: WorkerAnswer?
                do { answer = try WorkerAnswer.read(Substring(line)) } catch { return .died(Self.unreadable) }
                switch answer {
                case nil, .startedRun?, .startedCheck?: continue
                case .progress(let step)?: progress(step)
                case let answer?: return .answered(answer)
                }
            case .end: return .died(died())
            case .late:
                kill(pid, SIGKILL)
                _ = died()
                return .died(Ending(how: "no answer within \(Format.duration(limit ?? .zero)) (killed)", hung: true))
            }
        }
    }

    private enum Read {
        case line(String)
        /// The worker's standard output ended.
        case end
        /// The deadline passed first.
        case late
    }

    /// A line of the worker's standard output, unless it ends or `deadline` passes first.
    private func readLine(by deadline: ContinuousClock.Instant?) -> Read {
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return .line(line)
            }
            if let deadline {
                let left = ContinuousClock.now.duration(to: deadline)
                guard left > .zero else { return .late }
                let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1
                var ready = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
                let polled = poll(&ready, 1, Int32(min(milliseconds, Int64(Int32.max))))
                if polled < 0 && errno == EINTR { continue }
                if polled == 0 { continue }
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return .end }
            buffer += chunk[..<n]
        }
    }

    /// The worker ended in the middle of a request: how.
    private func died() -> Ending {
        let status = reap()
        let message = (try? String(contentsOfFile: errorFile, encoding: .utf8)).flatMap(CrashMessage.message(inStandardError:))
        try? FileManager.default.removeItem(atPath: errorFile)
        var how = Self.describe(status)
        if let message { how += ": " + String(message.prefix(300)) }
        return Ending(how: how, hung: false)
    }

    /// Closes the worker's input and waits for it; its wait status.
    @discardableResult
    private func reap() -> Int32 {
        guard !ended else { return 0 }
        ended = true
        close(input)
        close(output)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status
    }

    /// The worker is no longer needed: it ends at the end of its input.
    func finish() {
        guard !ended else { return }
        reap()
        try? FileManager.default.removeItem(atPath: errorFile)
    }

    /// `signal 4 (SIGILL)`, `exit status 2`.
    static func describe(_ status: Int32) -> String {
        let signal = status & 0x7f
        if signal == 0 { return "exit status \((status >> 8) & 0xff)" }
        let names: [Int32: String] = [
            SIGILL: "SIGILL", SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL",
            SIGSEGV: "SIGSEGV", SIGTERM: "SIGTERM",
        ]
        return "signal \(signal)" + (names[signal].map { " (\($0))" } ?? "")
    }

    /// This executable, to start workers with.
    static let executable: String = {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        return Bundle.main.executablePath ?? CommandLine.arguments[0]
    }()

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private static func failure(_ message: String) -> any Error { Failure(description: message) }
}
