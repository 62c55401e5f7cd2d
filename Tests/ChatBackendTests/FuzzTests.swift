import ChatBackend
import ChatCore
import Testing

@Suite struct FuzzTests {
    @Test(arguments: [1, 2, 3] as [UInt64])
    func garbageNeverCrashesAndInvariantsHold(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let world = try TestWorld()
        let users = ["alice", "bob", "carol"]
        var tokens: [TokenPair] = []
        for user in users { tokens.append(try world.tokens(user)) }
        let logs = Dictionary(uniqueKeysWithValues: users.map { ($0, EventLog()) })
        for (index, user) in users.enumerated() {
            let log = logs[user]!
            _ = try world.backend.subscribe(apiKey: TestWorld.apiKey, accessToken: tokens[index].accessToken, afterUserSeq: 0) {
                log.append($0)
            }.get()
        }
        var cursors: [String] = []
        var sent = 0
        var failed = 0
        var codes: [WireError.Code: Int] = [:]
        let conversationIds = ["c1", "c2", "c3", "", "x\u{0}y", String(repeating: "z", count: 300), "é🙂"]
        let garbage = ["", " ", "\u{0}", "null", "' OR 1=1 --", "%%", "🙂", String(repeating: "a", count: 3000), "YzE6", "bTE6", "czE6LTE"]

        func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &rng)] }
        func someString() -> String {
            Int.random(in: 0..<4, using: &rng) == 0 ? pick(garbage) : pick(conversationIds)
        }
        func someToken() -> String? {
            switch Int.random(in: 0..<12, using: &rng) {
            case 0: nil
            case 1: pick(garbage)
            case 2: pick(tokens).refreshToken
            default: pick(tokens).accessToken
            }
        }
        func someLimit() -> Int { pick([Int.min, -1, 0, 1, 2, 3, 50, 100, 101, Int.max]) }
        func someSeq() -> Int64 { pick([Int64.min, -1, 0, 1, 2, 5, Int64.max]) }
        func someCursor() -> String? {
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: nil
            case 1: cursors.isEmpty ? nil : pick(cursors)
            default: pick(garbage)
            }
        }
        func someContent() -> WireContent {
            if Bool.random(using: &rng) {
                return .text(Bool.random(using: &rng) ? "hello \(Int.random(in: 0..<99, using: &rng))" : pick(garbage))
            }
            return .attachment(
                kind: pick(WireContent.AttachmentKind.allCases), mimeType: pick(["image/png", "text/html", "", "VIDEO/MP4"]),
                size: pick([Int64.min, -1, 0, 1_000, 25 * 1024 * 1024, Int64.max]), fileName: pick([nil, "f.png", "", "\u{0}"]))
        }

        for _ in 0..<3_000 {
            let request: WireRequest
            switch Int.random(in: 0..<9, using: &rng) {
            case 0: request = .refresh(refreshToken: Bool.random(using: &rng) ? pick(tokens).refreshToken : pick(garbage))
            case 1: request = .listConversations(cursor: someCursor(), limit: someLimit())
            case 2: request = .getConversation(id: someString())
            case 3: request = .listMessages(conversationId: someString(), cursor: someCursor(), limit: someLimit())
            case 4: request = .messagesSince(conversationId: someString(), afterSeq: someSeq(), limit: someLimit())
            case 5: request = .setTyping(conversationId: someString(), isTyping: Bool.random(using: &rng))
            default:
                request = .sendMessage(
                    conversationId: someString(),
                    createConversation: Bool.random(using: &rng)
                        ? NewConversation(title: pick([nil, "t", String(repeating: "t", count: 1_001)])) : nil,
                    message: NewMessage(
                        id: Bool.random(using: &rng) ? "m\(Int.random(in: 0..<30, using: &rng))" : pick(garbage),
                        content: someContent(), replyTo: pick([nil, "m1", ""])))
            }
            let apiKey = Int.random(in: 0..<20, using: &rng) == 0 ? pick(garbage) : TestWorld.apiKey
            let token = someToken()
            let result = world.handle(request, token: token, apiKey: apiKey)
            switch result {
            case .success(.tokens(let pair)):
                // Keep the rotated pair usable (the old refresh token is spent).
                if let index = tokens.firstIndex(where: { $0.refreshToken == { if case .refresh(let t) = request { t } else { "" } }() }) {
                    tokens[index] = pair
                }
            case .success(.conversations(let page)): if let next = page.nextCursor { cursors.append(next) }
            case .success(.messages(let page)): if let next = page.nextCursor { cursors.append(next) }
            case .success(.sent): sent += 1
            case .success: break
            case .failure(let error):
                failed += 1
                codes[error.code, default: 0] += 1
                // Like an SDK would, get fresh tokens once they have expired.
                if error.code == .expiredToken, let index = tokens.firstIndex(where: { $0.accessToken == token }) {
                    tokens[index] = try world.tokens(users[index])
                }
                #expect(error.code != .internalError, "\(request) → \(error)")
            }
            switch Int.random(in: 0..<40, using: &rng) {
            case 0: world.clock.advance(.seconds(Int64.random(in: 0...900, using: &rng)))
            case 1: _ = try? world.backend.agentSay(conversationId: someString(), text: pick(["hi", "", "ok"]))
            case 2: try? world.backend.agentTyping(conversationId: someString(), isTyping: Bool.random(using: &rng))
            case 3: try? world.backend.agentRead(conversationId: someString())
            case 4: world.backend.expireAccessTokens(userId: pick(users))
            default: break
            }
        }

        // The run exercised both paths.
        #expect(sent >= 20 && failed >= 100, "sent \(sent), failed \(failed): \(codes)")

        // Messages of every conversation are numbered 1...n with no gap.
        for user in users {
            for conversation in world.backend.conversations(userId: user) {
                let seqs = try world.backend.messages(conversationId: conversation.id).map(\.seq)
                #expect(seqs == Array(0..<Int64(seqs.count)).map { $0 + 1 })
                #expect(conversation.lastSeq == Int64(seqs.count))
            }
            // Each user's events are numbered 1...n and each subscriber saw them all, once.
            let latest = world.backend.latestUserSeq(userId: user)
            #expect(logs[user]!.userSeqs == Array(0..<latest).map { $0 + 1 })
            #expect(logs[user]!.events == world.backend.events(userId: user))
        }
    }
}
