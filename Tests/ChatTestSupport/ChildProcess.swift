import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// How a child process ended.
public struct ChildExit: Sendable, Equatable, CustomStringConvertible {
    /// The exit status, or the signal's number when `signaled`.
    public var status: Int32
    /// Whether a signal ended it (`kill -9`), rather than `exit`.
    public var signaled: Bool

    public init(status: Int32, signaled: Bool) {
        self.status = status
        self.signaled = signaled
    }

    public var description: String { signaled ? "killed by signal \(status)" : "exit \(status)" }
}

/// A child process that did not end in time: it was killed.
public struct ChildProcessTimedOut: Error, CustomStringConvertible {
    public var command: String
    public var seconds: Int
    public var description: String { "\(command) was still running after \(seconds) s: killed" }
}

extension Process {
    /// Waits until the process (started with `run()`) ends, at most
    /// `timeout` of wall time; past it, kills it and throws.
    ///
    /// Foundation's `waitUntilExit()` learns of an exit through a socket the
    /// child inherits, on one manager thread for the whole process; a child
    /// spawned at the same moment from another thread can inherit that
    /// socket too and keep it open (a server, a tmux daemon), and the wait
    /// never ends. This asks the kernel instead (`waitid` with `WNOWAIT`,
    /// which leaves the child for Foundation to reap).
    public func waitForExit(timeout: Duration = .seconds(300)) throws -> ChildExit {
        let pid = processIdentifier
        let deadline = ContinuousClock.now + timeout
        var pause = 1_000 as useconds_t
        while true {
            if let exit = peekExit(pid) { return exit }
            if ContinuousClock.now >= deadline {
                kill(pid, SIGKILL)
                let command = ([executableURL?.lastPathComponent ?? "?"] + (arguments ?? [])).joined(separator: " ")
                throw ChildProcessTimedOut(command: command, seconds: Int(timeout.components.seconds))
            }
            usleep(pause)
            pause = min(pause * 2, 50_000)
        }
    }

    /// The exit of `pid` when it has ended, without reaping it; when
    /// Foundation has reaped it already, what Foundation recorded.
    private func peekExit(_ pid: Int32) -> ChildExit? {
        var info = siginfo_t()
        if waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 {
            guard info._sifields._sigchld.si_pid == pid else { return nil }
            let status = info._sifields._sigchld.si_status
            return ChildExit(status: status, signaled: info.si_code != CLD_EXITED)
        }
        guard errno == ECHILD else { return nil }
        // Reaped: Foundation marks it finished right after its waitpid.
        for _ in 0..<500 where isRunning { usleep(10_000) }
        guard !isRunning else { return nil }
        return ChildExit(status: terminationStatus, signaled: terminationReason == .uncaughtSignal)
    }
}

extension Process {
    /// Runs `executable` with `arguments` (standard input empty, standard
    /// error discarded), waits at most `timeout` and returns what it wrote
    /// on standard output. The output goes to a file, not a pipe: a daemon
    /// the program starts (tmux's server) would hold a pipe open for as long
    /// as it runs.
    public static func output(
        of executable: URL, _ arguments: [String], in directory: URL? = nil,
        timeout: Duration = .seconds(60)
    ) throws -> String {
        let scratch = try TemporaryFolder()
        let file = scratch.url.appendingPathComponent("stdout")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let output = try FileHandle(forWritingTo: file)
        defer { try? output.close() }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        _ = try process.waitForExit(timeout: timeout)
        return String(decoding: try Data(contentsOf: file), as: UTF8.self)
    }
}
