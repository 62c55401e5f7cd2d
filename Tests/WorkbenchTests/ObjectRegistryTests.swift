import Testing

@testable import Workbench

@Suite struct ObjectRegistryTests {
    /// `others` finds what `values` finds of a kind other than messages,
    /// without a view of each message.
    @Test func othersAreTheValuesOfTheirKind() throws {
        let session = try WorkbenchSession(options: WorkbenchOptions())
        for line in ["user set alice", "start conversation", "send c1 text \"hi\"", "send c1 text \"again\"", "watch items c1"] {
            _ = session.execute(line)
        }
        let objects = session.interpreter.objects
        let conversations = objects.others(ConversationObject.self)
        #expect(conversations.map(\.handle) == ["c1"])
        #expect(conversations.map(\.handle) == objects.values.compactMap { ($0 as? ConversationObject)?.handle })
        let watchers = objects.others(WatcherObject.self)
        #expect(watchers.map(\.handle) == ["w1"])
        #expect(watchers.map(\.handle) == objects.values.compactMap { ($0 as? WatcherObject)?.handle })
        #expect(objects.values.compactMap { $0 as? MessageObject }.count == 2)
    }
}
