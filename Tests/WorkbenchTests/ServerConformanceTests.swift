import ChatCore
import Testing

@testable import Workbench

/// Against a server, how long `wait` and `settle` took is real time and is
/// not compared; every duration `Format.duration` writes must be recognised
/// (issue 30: `settled after 2.118s` was compared as `[..].118s`).
@Suite struct ServerConformanceTests {
    @Test(arguments: [
        ("settled after 858ms", "settled after [..]"),
        ("settled after 2.118s", "settled after [..]"),
        ("settled after 2h34m0.947s (reconnection)", "settled after [..] (reconnection)"),
        ("waited 1d 1h30m for m1 to be sent", "waited [..] for m1 to be sent"),
        ("waited 0s for m1 to be sent", "waited [..] for m1 to be sent"),
        ("waited for nothing", "waited for nothing"),
    ])
    func waitsCompareWithoutTheirDuration(line: String, expected: String) {
        #expect(ServerConformance.normalizingWaits(line) == expected)
        #expect(ServerConformance.normalizingWaits(Format.duration(milliseconds: 2_118)) == Format.duration(milliseconds: 2_118))
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
        output.appendLine(": reconnect after back-off")
        output.append("    ")
        output.append("[00:00:01.500]", as: .time)
        output.appendLine(" sent")
        output.appendLine("m1 = text message in c-0524868489025cc1")
        output.appendLine("")
        #expect(
            ServerConformance.comparable(output) == [
                "  [00:00:00.044] a message that reads like an event", "settled after [..]: reconnect after back-off",
                "    [..] sent", "m1 = text message in <id>",
            ])
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
}
