import ChatCore
import Testing

@testable import Workbench

/// Against a server, how long `wait` and `settle` took is real time and is
/// not compared (issue 30: `settled after 2.118s` was compared as
/// `[..].118s`); what varies is said by the producers, and minted values
/// by the session that knows them.
@Suite struct ServerConformanceTests {
    /// LEGACY: a step recorded without styles is compared by the shapes
    /// its durations were printed in: every one `Format.duration` writes.
    @Test(arguments: [
        ("settled after 858ms", "settled after [..]"),
        ("settled after 2.118s", "settled after [..]"),
        ("settled after 2h34m0.947s (reconnection)", "settled after [..] (reconnection)"),
        ("waited 1d 1h30m for m1 to be sent", "waited [..] for m1 to be sent"),
        ("waited 0s for m1 to be sent", "waited [..] for m1 to be sent"),
        ("waited for nothing", "waited for nothing"),
    ])
    func aLegacyStepsWaitsCompareWithoutTheirDuration(line: String, expected: String) {
        #expect(ServerConformance.comparable(legacyRecorded: [line]) == [expected])
        let alone = Format.duration(milliseconds: 2_118)
        #expect(ServerConformance.comparable(legacyRecorded: [alone]) == [alone])
    }

    /// The run's own output is compared by what its producers said its
    /// parts are, never read back (issue 30): an event line (its time
    /// marked an event's) is left out, a measured duration and a stamp are
    /// `[..]`, whatever they read like; a line that only looks like an event
    /// is compared as it is.
    @Test func theRunsOutputIsComparedByWhatItsPartsAre() {
        var output = StyledText()
        output.append("  ")
        output.append("[00:00:00.044]", as: .eventTime)
        output.appendLine(" m1: sent")
        output.appendLine("  [00:00:00.044] a message that reads like an event")
        output.append("settled after ")
        output.append("2.118s", as: .duration)
        output.appendLine(" (reconnection)")
        output.append("settled after ")
        output.append("858ms", as: .duration)
        output.appendLine(": reconnect after back-off", as: .wakeUps)
        output.append("    ")
        output.append("[00:00:01.500]", as: .time)
        output.appendLine(" sent")
        output.appendLine("m1 = text message in c-0524868489025cc1")
        output.appendLine("")
        #expect(
            ServerConformance.comparable(output) == [
                "  [00:00:00.044] a message that reads like an event", "settled after [..] (reconnection)", "settled after [..]",
                "    [..] sent", "m1 = text message in c-0524868489025cc1",
            ])
    }

    /// A minted value compares as what the session knows it as, on each
    /// side: two worlds' different ids for one conversation compare equal,
    /// and one conversation's id printed where another's belongs does not,
    /// though the two have the same shape (the regex this replaced made
    /// every such id `<id>`). A value the session did not mint stays.
    @Test func mintedValuesCompareAsWhatTheSessionKnowsThemAs() {
        var embedded = MintedValues(isKept: true)
        embedded.learn("c-89025cc1", as: "c1.id")
        embedded.learn("c-d7363ca5", as: "c2.id")
        var server = MintedValues(isKept: true)
        server.learn("c-4e9f44e489025cc1", as: "c1.id")
        server.learn("c-4e9f44e4d7363ca5", as: "c2.id")
        func line(_ text: String) -> StyledText { StyledText.line(text) }
        let expected = ServerConformance.comparable(line("error: no conversation c-89025cc1 here, nor c-00000000"), naming: embedded)
        #expect(expected == ["error: no conversation <c1.id> here, nor c-00000000"])
        #expect(
            ServerConformance.comparable(line("error: no conversation c-4e9f44e489025cc1 here, nor c-00000000"), naming: server) == expected
        )
        #expect(
            ServerConformance.comparable(line("error: no conversation c-4e9f44e4d7363ca5 here, nor c-00000000"), naming: server) != expected
        )
        // Within a styled part too (an error line is a failure whole).
        let failure = StyledText.line("error: no conversation c-4e9f44e489025cc1 here, nor c-00000000", as: .failure)
        #expect(ServerConformance.comparable(failure, naming: server) == expected)
    }

    /// A settle names the timers it moved the clock through, which only the
    /// embedded world has: that part varies against a server, with the
    /// duration before it, as one.
    @Test func aSettlesWakeUpsAreMarked() throws {
        let session = try WorkbenchSession(options: WorkbenchOptions())
        for line in ["user set alice", "start conversation", "provider unreachable", "send c1 text \"hi\"", "provider ok"] {
            _ = session.execute(line)
        }
        let settled = session.execute("settle").styledOutput
        let last = try #require(settled.lines.last { !$0.text.isEmpty })
        #expect(last.styledParts.map(\.style) == [.duration, .wakeUps], "\(settled.text)")
        #expect(ServerConformance.comparable(last) == ["settled after [..]"])
    }

    /// The real runs: a session's `wait` and `settle` mark their durations,
    /// its events their times, `inspect` its history's stamps.
    @Test func theProducersMarkWhatVaries() throws {
        let session = try WorkbenchSession(options: WorkbenchOptions())
        let lines = ["user set alice", "start conversation", "send c1 text \"hi\"", "wait m1 state sent", "settle", "inspect m1"]
        let outputs = lines.map { session.execute($0).styledOutput }
        let styles = outputs.map { Set($0.spans.map(\.style)) }
        #expect(styles[0] == [.eventTime] && styles[3] == [.duration] && styles[4] == [.duration])
        #expect(outputs[3].styledParts.map(\.text) == ["0s"] && outputs[4].styledParts.map(\.text) == ["0s"])
        #expect(styles[5].contains(.time) && !styles[5].contains(.eventTime))
        #expect(ServerConformance.comparable(outputs[2]).allSatisfy { !$0.contains("[00:") }, "\(outputs[2].text)")
    }

    /// A `# server-only` file's lines are compared as written, without its
    /// event lines (the transcript format's: a stamp or `[..]` after two
    /// spaces); nothing else in them is rewritten.
    @Test func aServerOnlyFilesLinesAreComparedAsWritten() {
        let lines = [
            "c1 = conversation c-[..] (local)", "  [00:00:00.044] m1: sent", "  [..] m1: sent", "waited [..] for m1 to be sent",
            "  history: [00:00:00.044]", "...",
        ]
        #expect(
            ServerConformance.comparable(expected: lines) == [
                "c1 = conversation c-[..] (local)", "waited [..] for m1 to be sent", "  history: [00:00:00.044]",
            ])
    }
}
