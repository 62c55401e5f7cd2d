import Foundation
import Synchronization

/// Ctrl-C at the prompt: cancels the line being typed instead of killing the
/// REPL. A SIGINT handler without SA_RESTART makes libedit's read fail, so
/// `readline()` returns; the flag tells that apart from end of input.
/// While a command runs, Ctrl-C keeps its default meaning and ends the process.
enum Interrupt {
    private static let flag = Atomic<Bool>(false)
    private static let atPrompt = Atomic<Bool>(false)

    /// Installs the handler (interactive sessions only).
    static func install() {
        var action = sigaction()
        #if os(Linux)
        action.__sigaction_handler.sa_handler = handle
        #else
        action.__sigaction_u.__sa_handler = handle
        #endif
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0  // no SA_RESTART: the pending read must return
        sigaction(SIGINT, &action, nil)
    }

    /// Runs `read` (the line editor) with Ctrl-C cancelling it; returns its
    /// result and whether Ctrl-C was pressed.
    static func atPrompt<T>(_ read: () -> T) -> (result: T, interrupted: Bool) {
        flag.store(false, ordering: .relaxed)
        atPrompt.store(true, ordering: .relaxed)
        let result = read()
        atPrompt.store(false, ordering: .relaxed)
        return (result, flag.exchange(false, ordering: .relaxed))
    }

    // Only async-signal-safe calls in here.
    private static let handle: @convention(c) (Int32) -> Void = { number in
        if Interrupt.atPrompt.load(ordering: .relaxed) {
            Interrupt.flag.store(true, ordering: .relaxed)
        } else {
            _ = signal(number, SIG_DFL)
            _ = raise(number)
        }
    }
}
