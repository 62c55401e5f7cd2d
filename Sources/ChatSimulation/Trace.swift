/// Something a runtime traces, as the code that saw it knew it: a
/// request's fate on the simulated network, or a line of the token
/// provider, the delegate or the network. The workbench logs it as one
/// event and renders it once, at the edge; nothing parses its text back
/// (issue 30).
package enum Trace: Sendable, Hashable {
    /// A request that reached the network, and what came of it
    /// (``RequestAnswer``: answered, refused with a code, failed as a
    /// transport fails, its answer lost). Shown as `net: sendMessage → ok`.
    case request(name: String, answer: RequestAnswer)
    /// A line of `source` (`provider`, `delegate`, `network`).
    case line(source: String, message: String)
}
