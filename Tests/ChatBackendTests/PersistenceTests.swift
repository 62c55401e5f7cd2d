import ChatBackend
import ChatCore
import Foundation
import Testing

@Suite struct PersistenceTests {
    @Test func aFileBackedBackendKeepsItsDataAcrossReopen() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chatbackend-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("backend.sqlite").path
        let clock = TestClock()
        let environment = BackendEnvironment.counting(on: clock)

        let pair: TokenPair
        do {
            let backend = try Backend(environment: environment, path: path)
            try backend.createApp(apiKey: "k", jwtSecret: "s")
            pair = try backend.issueTokens(apiKey: "k", userId: "alice")
            _ = try backend.handle(
                WireEnvelope(
                    apiKey: "k", accessToken: pair.accessToken, deviceId: "d",
                    request: .sendMessage(
                        conversationId: "c1", createConversation: NewConversation(title: "t"),
                        message: NewMessage(id: "m1", content: .text("persisted"), replyTo: nil)))
            ).get()
        }
        let reopened = try Backend(environment: environment, path: path)
        #expect(try reopened.messages(conversationId: "c1").map(\.text) == ["persisted"])
        #expect(reopened.latestUserSeq(userId: "alice") == 2)
        #expect(try reopened.jwtSecret(apiKey: "k") == "s")
        let result = reopened.handle(
            WireEnvelope(apiKey: "k", accessToken: pair.accessToken, deviceId: "d", request: .getConversation(id: "c1")))
        #expect((try? result.get()) != nil)
    }
}
