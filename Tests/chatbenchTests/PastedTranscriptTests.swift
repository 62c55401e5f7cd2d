import Testing

@testable import chatbench

/// A transcript pasted at the prompt runs its `> ` lines and skips the
/// output pasted with them (issue 30), as IPython takes a pasted session.
@Suite struct PastedTranscriptTests {
    @Test func promptedLinesRunAndTheirPastedOutputIsSkipped() {
        var paste = PastedTranscript()
        #expect(paste.take("> user set alice", wasWaiting: false) == .run("user set alice"))
        #expect(paste.take("user alice set on client (no request)", wasWaiting: true) == .skip)
        #expect(paste.take("  [00:00:00.000] client.session → userSet(alice)", wasWaiting: true) == .skip)
        #expect(paste.take("> # a comment", wasWaiting: true) == .run("# a comment"))
        #expect(paste.take(">", wasWaiting: true) == .run(""))
        // Typed by hand afterwards (nothing was waiting): it runs.
        #expect(paste.take("whoami", wasWaiting: false) == .run("whoami"))
        #expect(!paste.pasting)
        #expect(paste.take("whoami", wasWaiting: true) == .run("whoami"))
    }

    @Test func withoutAPromptNothingIsSkipped() {
        var paste = PastedTranscript()
        // Several lines pasted without prompts are commands, as before.
        #expect(paste.take("user set alice", wasWaiting: true) == .run("user set alice"))
        #expect(paste.take("start conversation", wasWaiting: true) == .run("start conversation"))
        #expect(paste.take(">x", wasWaiting: true) == .run(">x"))
    }
}
