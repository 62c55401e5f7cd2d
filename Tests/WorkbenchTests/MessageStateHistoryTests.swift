import ChatSDK
import Testing

@testable import Workbench

/// A message's state history is the `SendState`s the SDK reported (issue
/// 25), decided on by their kind and rendered to text only by the
/// inspector.
@Suite struct MessageStateHistoryTests {
    /// A message's history keeps the states the SDK reported, a failed
    /// one with its error, and the inspector renders them as before.
    @Test func aMessagesHistoryKeepsItsStatesAndRendersThemAtTheEdge() throws {
        let session = try WorkbenchSession(options: WorkbenchOptions())
        _ = session.execute("user set alice")
        _ = session.execute("start conversation")
        _ = session.execute("send c1 video big.mp4 --size 90000000")
        let m1 = try #require(session.interpreter.objects["m1"] as? MessageObject)
        #expect(m1.history.map(\.state.kind) == [.toBeSent, .sending, .failed])
        let lines = m1.history(in: session.interpreter.handles).map { String($0.text.split(separator: " ").last ?? "") }
        #expect(lines == ["toBeSent", "sending", "failed(attachmentTooLarge)"])
        #expect(session.violations().isEmpty, "\(session.violations())")
    }
}
