import Foundation
import Synchronization
import Workbench

/// Shows `explore`'s progress on standard error while runs end on several
/// threads: at a terminal, one line redrawn in place (at most ten times a
/// second) and erased at the end; elsewhere (a pipe, a CI log), a plain
/// line at each tenth of the runs.
final class ProgressReporter: Sendable {
    private struct State {
        var progress: ExploreProgress
        var lastDrawn: Date?
    }

    private let state: Mutex<State>
    private let started: Date
    private let atTerminal: Bool
    private let write: @Sendable (String) -> Void

    init(
        _ progress: ExploreProgress, started: Date, atTerminal: Bool = Terminal.stderrIsTerminal,
        write: @escaping @Sendable (String) -> Void = { Terminal.writeError($0) }
    ) {
        state = Mutex(State(progress: progress))
        self.started = started
        self.atTerminal = atTerminal
        self.write = write
    }

    /// One more run ended; reports if a report is due.
    func runEnded(failed: Bool, at now: Date = Date()) {
        state.withLock { s in
            s.progress.done += 1
            if failed { s.progress.failed += 1 }
            s.progress.seconds = now.timeIntervalSince(started)
            if atTerminal {
                guard s.progress.done < s.progress.total, s.lastDrawn.map({ now.timeIntervalSince($0) >= 0.1 }) ?? true else { return }
                s.lastDrawn = now
                write("\r\u{1B}[K" + s.progress.line)
            } else if ExploreProgress.isMilestone(s.progress.done, of: s.progress.total) {
                write(s.progress.line + "\n")
            }
        }
    }

    /// The runs are over: a line drawn at the terminal is erased (the
    /// summary on standard output takes its place).
    func finish() {
        state.withLock { s in
            if atTerminal, s.lastDrawn != nil { write("\r\u{1B}[K") }
        }
    }
}
