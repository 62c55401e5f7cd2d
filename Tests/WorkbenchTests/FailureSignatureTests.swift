import Testing

@testable import Workbench

/// A failure's signature is a value, compared as one by shrinking and
/// rendered only where it is shown (issue 30): before, each was a string
/// made by whoever found the failure and compared as text.
@Suite struct FailureSignatureTests {
    /// Each kind renders as the `# shrunk from` line has always shown it.
    @Test func eachSignatureRendersAsBefore() {
        let rendered: [(FailureSignature, String)] = [
            (.violation(.delivered), "every message sent once or failed"),
            (.violation(.hang), "no hang"),
            (.violation(.crash, detail: "the run crashed (signal 4 (SIGILL))"), "no crash: the run crashed (signal 4 (SIGILL))"),
            (
                .violation(
                    .expects, detail: "expect m1.state == sent — expected == \"sent\", found \"toBeSent\"",
                    referents: " (m1 by alice \"hi\")"),
                "the script's expects: expect m1.state == sent — expected == \"sent\", found \"toBeSent\" (m1 by alice \"hi\")"
            ),
            (
                .violation(.scriptError, detail: "send c9 text hi — unknown conversation \"c9\""),
                "script runs: send c9 text hi — unknown conversation \"c9\""
            ),
            (
                .expectFailed("expect m1.state == sent — found \"toBeSent\"", referents: ""),
                "an expect failed: expect m1.state == sent — found \"toBeSent\""
            ),
            (
                .outputDiffers(input: "send c1 text hi", expected: "  m1: sent", found: nil),
                "output differs at > send c1 text hi: expected \"  m1: sent\", found nothing"
            ),
            (.lineFailed("send c9 text hi — unknown conversation \"c9\""), "a line failed: send c9 text hi — unknown conversation \"c9\""),
            (.stepCrashed("signal 4 (SIGILL)"), "the step crashed (signal 4 (SIGILL))"),
            (.stepHung("no answer within 60s (killed)"), "the step hung (no answer within 60s (killed))"),
        ]
        for (signature, text) in rendered { #expect(signature.description == text) }
    }

    /// Two failures that read alike are not the same failure: an expect
    /// whose line ends as another's messages are described is another
    /// expect (as strings, the two were equal and shrinking took one for
    /// the other).
    @Test func failuresThatReadAlikeAreNotTheSame() {
        let oneLine = FailureSignature.violation(.expects, detail: "expect m1.text == \"a (m1)\"", referents: "")
        let withReferents = FailureSignature.violation(.expects, detail: "expect m1.text == \"a", referents: " (m1)\"")
        #expect(oneLine.description == withReferents.description)
        #expect(oneLine != withReferents)
        // A script's first violation gives the signature, its detail only where it tells failures apart.
        #expect(Explorer.signature(of: [Violation(invariant: .hang, detail: "no answer within 1s (killed)")]) == .violation(.hang))
        #expect(Explorer.signature(of: [Violation(invariant: .ordered, detail: "c1: m2 before m1")]) == .violation(.ordered))
        #expect(Explorer.signature(of: []) == nil)
    }
}
