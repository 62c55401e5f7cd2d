import ChatSDK
import Testing

@testable import Workbench

/// Each event is a value; its source and line come from it, never from
/// parsing text.
@Suite struct WorldEventTests {
    @Test func sourcesAreTheRecordingsOwn() {
        #expect(WorldEvent.client("phone", .sessionChanged(.signedOut)).source == "phone.session")
        #expect(WorldEvent.client("phone", .connectionChanged(.connected)).source == "phone.connection")
        #expect(WorldEvent.client("phone", .warning("careful")).source == "phone")
        #expect(WorldEvent.messageState(message: "m1", state: .sent).source == "m1:")
        #expect(WorldEvent.request(name: "send", answer: .ok).source == "net:")
        #expect(WorldEvent.emission(watcher: "inbox", fresh: true, refreshing: .refreshed, summary: "0 items").source == "inbox")
    }

    @Test func linesAreRenderedFromTheValues() {
        let failed = ChatError(.offline, "The device is offline")
        #expect(
            WorldEvent.emission(watcher: "w1", fresh: false, refreshing: .failed(failed), summary: "2 items").text
                == "w1 emits (cached, failed) 2 items — offline")
        #expect(WorldEvent.messageState(message: "m2", state: .failed(failed)).text == "m2: failed (offline — The device is offline)")
        #expect(
            WorldEvent.client("client", .connectionChanged(.waitingForNetwork(.backoff(attempt: 2)))).text
                == "client.connection → waitingForNetwork(backoff(attempt 2))")
        #expect(
            WorldEvent.watcherEnded(watcher: "w3", error: ChatError(.userCleared, "The user was cleared")).text
                == "w3 ended: userCleared — The user was cleared")
        #expect(WorldEvent.request(name: "send", answer: .ok).text == "net: send → ok")
        #expect(WorldEvent.request(name: "send", answer: .refused(code: .expiredToken)).text == "net: send → expiredToken")
        #expect(
            WorldEvent.request(name: "send", answer: .failed(kind: .timeout, cause: "net fail")).text == "net: send → timeout (net fail)")
        #expect(WorldEvent.request(name: "send", answer: .failed(kind: .reset, cause: nil)).text == "net: send → reset")
        #expect(
            WorldEvent.request(name: "send", answer: .answerLost(cause: "net drop --in-flight")).text
                == "net: send → answer lost (net drop --in-flight)")
        #expect(WorldEvent.request(name: "send", answer: .unknownFailure).text == "net: send → failed")
        #expect(WorldEvent(.request(name: "send", answer: .ok)).isNetwork)
        #expect(!WorldEvent.trace(source: "provider", message: "x").isNetwork)
    }

    @Test func theLogKeepsOrderAndSequence() {
        let log = EventLog()
        log.append(.simulationEpoch, .trace(source: "provider", message: "asked"))
        log.append(.simulationEpoch, .messageState(message: "m1", state: .toBeSent))
        let entries = log.take()
        #expect(entries.map(\.seq) == [0, 1])
        #expect(log.take().isEmpty)
        #expect(log.append(.simulationEpoch, .messageState(message: "m1", state: .sending)).seq == 2)
    }

    /// A big step's buffer leaves with its entries: the log keeps no room
    /// for them afterwards (it used to keep a buffer as large as the
    /// biggest step's, allocated anew by each take).
    @Test func theLogKeepsNoBufferAfterAStep() {
        let log = EventLog()
        for n in 0..<10_000 { log.append(.simulationEpoch, .trace(source: "provider", message: "line \(n)")) }
        #expect(log.take().count == 10_000)
        #expect(log.retainedCapacity < 100)
        log.append(.simulationEpoch, .trace(source: "provider", message: "one more"))
        #expect(log.take().count == 1)
        #expect(log.retainedCapacity < 100)
    }
}
