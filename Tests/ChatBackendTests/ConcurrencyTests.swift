import ChatBackend
import ChatCore
import Dispatch
import Testing

@Suite struct ConcurrencyTests {
    /// The backend is called from one thread in the simulation, but it is
    /// `Sendable`: calls from several threads at once must keep every invariant.
    @Test func concurrentSendsKeepSequencesWhole() throws {
        let world = try TestWorld()
        let users = ["u0", "u1", "u2", "u3"]
        let tokens = try users.map { try world.tokens($0).accessToken }
        let logs = users.map { _ in EventLog() }
        for index in users.indices {
            let log = logs[index]
            _ = try world.backend.subscribe(apiKey: TestWorld.apiKey, accessToken: tokens[index], afterUserSeq: nil) { log.append($0) }
                .get()
        }
        // Four users, each on two threads, all writing into the user's one conversation.
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            let index = worker % users.count
            for n in 0..<20 {
                _ = world.handle(
                    .sendMessage(
                        conversationId: "c-\(users[index])", createConversation: NewConversation(title: nil),
                        message: NewMessage(id: "w\(worker)-\(n)", content: .text("x"), replyTo: nil)),
                    token: tokens[index])
                if n % 5 == 0 { _ = try? world.backend.agentSay(conversationId: "c-\(users[index])", text: "agent") }
            }
        }
        for (index, user) in users.enumerated() {
            let seqs = try world.backend.messages(conversationId: "c-\(user)").map(\.seq)
            #expect(seqs == Array(1...Int64(seqs.count)))
            #expect(seqs.count >= 40)
            #expect(logs[index].events == world.backend.events(userId: user))
            #expect(logs[index].userSeqs == Array(1...world.backend.latestUserSeq(userId: user)))
        }
    }
}
