import ChatCore
import Testing

@testable import Workbench

@Suite struct EventRunsTests {
    @Test func lonelyEventsStayAsTheyAre() {
        #expect(EventRuns.fold(["a", "b", "a"]) == [.event(index: 0), .event(index: 1), .event(index: 2)])
    }

    @Test func aRunOfOneEventFolds() {
        let texts = Array(repeating: "tick", count: 5)
        #expect(EventRuns.fold(texts) == [.event(index: 0), .repeated(count: 4, block: 0..<1, lastIndex: 4)])
    }

    @Test func aRepeatedPairFoldsAfterItsFirstOccurrence() {
        var texts = ["start"]
        for _ in 0..<1000 { texts += ["session → refreshing", "session → authenticated"] }
        texts.append("end")
        #expect(
            EventRuns.fold(texts) == [
                .event(index: 0), .event(index: 1), .event(index: 2),
                .repeated(count: 999, block: 1..<3, lastIndex: 2000), .event(index: 2001),
            ])
    }

    @Test func twoRepeatsAreShownInFull() {
        #expect(EventRuns.fold(["x", "x"]) == [.event(index: 0), .event(index: 1)])
    }

    @Test func countsAreGrouped() {
        #expect(EventRuns.grouped(8831) == "8,831")
        #expect(EventRuns.grouped(999) == "999")
        #expect(EventRuns.grouped(1_234_567) == "1,234,567")
    }

    @Test func stampsShowDaysFromADayOn() {
        let start = Instant.simulationEpoch
        #expect(EventLog.stamp(start + .milliseconds(1250), since: start) == "[00:00:01.250]")
        let later = start + .seconds(86_400 + 2 * 3600 + 3 * 60 + 4) + .milliseconds(5)
        #expect(EventLog.stamp(later, since: start) == "[1d 02:03:04.005]")
    }
}
