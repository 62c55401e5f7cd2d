/// What a part of the output is, said by the code that prints it: an edge
/// that shows kinds apart (a terminal's colours) goes by this, never by
/// reading the text back (issue 30). The text is the same whatever its style:
/// transcripts, recordings and pipes take the text alone.
package enum OutputStyle: String, Sendable, Hashable, Codable {
    /// Something went wrong: `error:`, `script error:`, `expect failed:`,
    /// a test report's `FAIL` and `ERROR` lines.
    case failure
    /// Something held: `ok:` from `expect`.
    case success
    /// A time stamp or a timing: a history's `[00:00:00.071]`, `virtual 44ms, wall 1.2ms`.
    case time
    /// An event's time, first on the event's line (`  [00:00:00.071] m1: sent`):
    /// against a server, event lines interleave as the network delivers them.
    case eventTime
    /// A duration a command measured on the stage's clock (`waited 50ms`,
    /// `settled after 2.118s`): real time against a server.
    case duration
    /// What a settle moved the clock through (`: resend to c-1 after
    /// back-off`): the embedded world's timers, which it names; against a
    /// server time moves by itself and none is named.
    case wakeUps
    /// A diff's expected line that is missing (`- …`).
    case removed
    /// A diff's actual line that was not expected (`+ …`).
    case added
    /// A value the client or the server minted (a conversation's id, an
    /// anonymous user's), as the session knew it (``MintedValues``). Never
    /// printed: a server session's recording keeps these parts beside the
    /// styles (`step.styles`), where they may lie within another part, so
    /// that its export writes them as `[..]`.
    case minted

    /// Whether the part differs between two runs of one transcript against
    /// a server (real times; events as the network interleaves them): what
    /// `chatbench test --server` leaves out of the comparison (``ServerConformance``).
    package var variesAgainstAServer: Bool {
        switch self {
        case .time, .eventTime, .duration, .wakeUps, .minted: true
        case .failure, .success, .removed, .added: false
        }
    }
}
