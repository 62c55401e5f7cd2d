import Foundation

/// Long output at a terminal goes through a pager, as psql's does: a step's
/// output taller than the terminal is written to `$CHATBENCH_PAGER`, else
/// `$PAGER`, else `less -FRX` when there is a `less` (an empty variable turns
/// paging off; `--no-pager` too). Never when standard output is not a
/// terminal: piped output, scripts, transcripts and replays are not paged.
struct Pager {
    /// The shell command that pages.
    let command: String

    /// The pager the environment asks for, nil when paging is off.
    static func fromEnvironment(_ environment: [String: String], lessIsInstalled: () -> Bool = Pager.lessIsInstalled) -> Pager? {
        for name in ["CHATBENCH_PAGER", "PAGER"] {
            if let value = environment[name] {
                let command = value.trimmingCharacters(in: .whitespaces)
                return command.isEmpty ? nil : Pager(command: command)
            }
        }
        return lessIsInstalled() ? Pager(command: "less -FRX") : nil
    }

    /// Whether output of `text` is taller than a terminal of `rows` rows and
    /// `columns` columns (long lines take several rows), prompt left aside.
    static func isTaller(_ text: String, rows: Int, columns: Int) -> Bool {
        var used = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            used += max(1, (line.count + columns - 1) / max(columns, 1))
            if used >= rows { return true }
        }
        return false
    }

    /// Writes `text` through the pager and waits for it to end; false when
    /// the pager could not be started (then nothing was written). Started
    /// with posix_spawn in chatbench's own process group, not with Process,
    /// which gives the child a group of its own: in the background, a pager
    /// cannot read the keys it pages with (reading the terminal fails).
    func page(_ text: String) -> Bool {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return false }
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, readEnd, STDIN_FILENO)
        posix_spawn_file_actions_addclose(&actions, readEnd)
        posix_spawn_file_actions_addclose(&actions, writeEnd)
        var pid: pid_t = 0
        let arguments = ["/bin/sh", "-c", command]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, argv, environ)
        close(readEnd)
        guard spawned == 0 else {
            close(writeEnd)
            return false
        }
        // A pager that quits early (q) closes its end: the rest is dropped.
        let previous = signal(SIGPIPE, SIG_IGN)
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { break }
            bytes = bytes.dropFirst(written)
        }
        close(writeEnd)
        signal(SIGPIPE, previous)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return true
    }

    static func lessIsInstalled() -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/less") }
    }
}
