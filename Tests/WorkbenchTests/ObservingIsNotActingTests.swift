import ChatSDK
import Testing

@testable import Workbench

/// The workbench observes message states through the SDK's events: a
/// session's traffic holds the requests an app would make, and none of the
/// workbench's own (issue 30 §1: `send` started a hidden watcher that
/// fetched the conversation's messages on every foreground).
@Suite struct ObservingIsNotActingTests {
    /// The message-page requests of a session's steps, one row per request.
    private func messagePages(_ script: [String]) throws -> [String] {
        let session = try WorkbenchSession(options: WorkbenchOptions())
        return script.flatMap { line in
            session.execute(line).traffic.filter { $0.channel == .http && $0.direction == .out }.map(\.summary)
                .filter { $0.hasPrefix("GET ") && $0.contains("/messages") }
        }
    }

    @Test func aSendAndAForegroundFetchNoMessagePage() throws {
        let pages = try messagePages([
            "user set alice", "start conversation", "send c1 text \"one\"", "agent say c1 \"hello\"", "app background",
            "app foreground", "send c1 text \"two\"",
        ])
        #expect(pages == [])
    }

    /// With a watcher of the app's, the pages are that watcher's: one when it
    /// starts, one when the app comes back to the foreground.
    @Test func aWatcherFetchesItsOwnPagesOnly() throws {
        let pages = try messagePages([
            "user set alice", "start conversation", "send c1 text \"one\"", "watch items c1", "app background",
            "app foreground",
        ])
        #expect(pages.count == 2, "\(pages)")
    }

    /// What the workbench shows of a message still follows it: its state
    /// and sequence number from `messageStateChanged`, the agent's message
    /// from the backend that wrote it.
    @Test func messageFieldsNeedNoWatcher() throws {
        let session = try WorkbenchSession(options: WorkbenchOptions())
        for line in ["user set alice", "start conversation", "send c1 text \"one\"", "agent say c1 \"hello\""] {
            _ = session.execute(line)
        }
        for check in ["m1.state == sent", "m1.seq == 1", "m2.text == \"hello\"", "m2.seq == 2", "m2.author == agent"] {
            let output = session.execute("expect \(check)").output
            #expect(output.hasPrefix("ok:"), "\(check): \(output)")
        }
    }
}
