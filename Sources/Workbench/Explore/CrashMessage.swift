/// What a run or trial that crashed in a worker process says about its
/// crash (issue 29 §4). A crash is a failure signature like any other: a
/// smaller script that crashes otherwise (another trap, another message)
/// does not fail the same way, and one that crashes the same way in another
/// process does, so the message is taken in a form that does not change
/// from one process to the next.
package enum CrashMessage {
    /// The runtime's message in what a crashed process wrote on standard
    /// error, made stable: the line before `Current stack trace:` when
    /// there is one (a `fatalError`, a failed `precondition`, a
    /// force-unwrapped nil, an unowned reference read after it was freed),
    /// else the last line that says `Fatal error`, else the last line; nil
    /// when it wrote nothing.
    package static func message(inStandardError text: String) -> String? {
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let trace = lines.firstIndex(of: "Current stack trace:")
        let line = trace.flatMap { $0 > 0 ? lines[$0 - 1] : nil } ?? lines.last { $0.contains("Fatal error") } ?? lines.last
        return line.map(stable)
    }

    /// `text` with what differs from one process to the next made the
    /// same: an address (`object 0x00005581f4b2c9e0 was already
    /// destroyed`) becomes `0x…`.
    package static func stable(_ text: String) -> String {
        text.replacing(/0x[0-9a-fA-F]+/, with: "0x…")
    }
}
