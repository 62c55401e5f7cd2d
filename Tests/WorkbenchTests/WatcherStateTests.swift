import ChatSDK
import Testing

@testable import Workbench

/// A watcher's state is a value (issue 30): the refresh state of its last
/// emission while it follows its data, or ended; its name is rendered only
/// where it is shown (`w1.state`, the summary, `wait w1 done`).
@Suite struct WatcherStateTests {
    @Test func theNameOfEachState() {
        #expect(WatcherState.live(.refreshing).name == "refreshing")
        #expect(WatcherState.live(.refreshed).name == "refreshed")
        #expect(WatcherState.live(.failed(ChatError(.offline, "The device is offline"))).name == "failed")
        #expect(WatcherState.ended.name == "ended")
        #expect(WatcherState.ended.isEnded)
        #expect(!WatcherState.live(.refreshing).isEnded)
    }

    @Test func aWatcherHoldsTheRefreshStateItEmittedThenEnded() throws {
        let (session, results) = try run([
            "user set alice", "start conversation", "send c1 text hi", "watch items c1", "settle",
            "expect w1.state == refreshed", "stop w1", "expect w1.state == ended",
        ])
        #expect(results.allSatisfy { $0.status == .ok }, "\(results.map(\.output))")
        let w1 = try #require(session.interpreter.objects["w1"] as? WatcherObject)
        #expect(w1.state == .ended)
        #expect(!w1.fresh)
        #expect(w1.summary(in: session.interpreter.handles).hasPrefix("w1: watch items c1 — ended, not fresh"))
    }

    @Test func waitingForAWatcherShowsTheStateItCameTo() throws {
        let (session, results) = try run(["user set alice", "start conversation", "watch items c1", "wait w1 done"])
        #expect(results.allSatisfy { $0.status == .ok }, "\(results.map(\.output))")
        let w1 = try #require(session.interpreter.objects["w1"] as? WatcherObject)
        #expect(w1.state == .live(.refreshed))
        #expect(results.last?.output.contains("refreshed") == true, "\(results.last?.output ?? "")")
    }
}
