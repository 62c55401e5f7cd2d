import ChatSimulation
import Foundation
import Synchronization

/// Ctrl-C in the REPL, as in IPython or psql.
///
/// At the prompt it cancels the line being typed: a SIGINT handler without
/// SA_RESTART makes libedit's read fail, so `readline()` returns, and the
/// flag tells that apart from end of input. While a command runs it stops
/// the command: the world stops running where it is (`Interruption`),
/// every object and handle stays, and the step ends as `interrupted`. A
/// second Ctrl-C within a second of the first, while the command has not
/// yet stopped, ends the process.
enum Interrupt {
    private static let flag = Atomic<Bool>(false)
    private static let atPrompt = Atomic<Bool>(false)
    /// When the last Ctrl-C during a command came (monotonic milliseconds).
    private static let lastPress = Atomic<Int64>(0)
    /// What Ctrl-C stops: the REPL's sessions are given it
    /// (`WorldOptions.workbenchOptions`). Global because a signal handler
    /// can reach only global state; the engine holds none of its own.
    static let interruption = Interruption()

    /// Installs the handler (interactive sessions only).
    static func install() {
        // Initialised here, not lazily inside the handler (swift_once is
        // not async-signal-safe).
        _ = interruption.isRequested
        var action = sigaction()
        #if os(Linux)
            action.__sigaction_handler.sa_handler = handle
        #else
            action.__sigaction_u.__sa_handler = handle
        #endif
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0 // no SA_RESTART: the pending read must return
        sigaction(SIGINT, &action, nil)
    }

    /// Runs `read` (the line editor) with Ctrl-C cancelling it; returns its
    /// result and whether Ctrl-C was pressed.
    static func atPrompt<T>(_ read: () -> T) -> (result: T, interrupted: Bool) {
        flag.store(false, ordering: .relaxed)
        atPrompt.store(true, ordering: .relaxed)
        let result = read()
        atPrompt.store(false, ordering: .relaxed)
        // libedit's readline returns with SIGINT blocked in this thread
        // (seen in /proc: SigBlk had it): the command that follows could
        // not be interrupted. Unblock it.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        return (result, flag.exchange(false, ordering: .relaxed))
    }

    /// Runs `body` (a pager showing output) with Ctrl-C left to it: no
    /// command is running, so it stops nothing and never ends the process.
    static func whilePaging<T>(_ body: () -> T) -> T {
        atPrompt.store(true, ordering: .relaxed)
        defer {
            atPrompt.store(false, ordering: .relaxed)
            flag.store(false, ordering: .relaxed)
        }
        return body()
    }

    /// Monotonic milliseconds; `clock_gettime` is async-signal-safe.
    private static func monotonicMilliseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }

    // Only async-signal-safe calls in here: atomics, clock_gettime, signal, raise.
    private static let handle: @convention(c) (Int32) -> Void = { number in
        if Interrupt.atPrompt.load(ordering: .relaxed) {
            Interrupt.flag.store(true, ordering: .relaxed)
            return
        }
        let now = Interrupt.monotonicMilliseconds()
        let previous = Interrupt.lastPress.exchange(now, ordering: .relaxed)
        if Interrupt.interruption.isRequested, now - previous < 1000 {
            _ = signal(number, SIG_DFL)
            _ = raise(number)
        } else {
            Interrupt.interruption.request()
        }
    }
}
