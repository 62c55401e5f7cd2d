import ChatCore
import Testing

@testable import ChatBackend

/// Issue 26, item 1: one rule for identifiers. Every id is normalised to NFC
/// where it comes in, so canonically equivalent spellings are one id in
/// SQLite, in every in-memory structure and on the wire, and no user ever
/// sees another user's data through a spelling.
@Suite struct IdentifierRuleTests {
    static let composed = "caf\u{E9}" // é, one scalar
    static let decomposed = "cafe\u{301}" // e + combining acute

    @Test func theTwoSpellingsDifferInBytesButNotAsSwiftStrings() {
        #expect(Self.composed == Self.decomposed) // why the rule is needed
        #expect(!Self.composed.isSameIdentifier(as: Self.decomposed))
        #expect(Identifier.normalized(Self.decomposed).isSameIdentifier(as: Self.composed))
        #expect(Identifier.normalized(Self.composed).isSameIdentifier(as: Self.composed))
        #expect(Identifier.normalized("plain-ascii") == "plain-ascii")
        #expect(ExactKey(Self.composed) != ExactKey(Self.decomposed))
        #expect(Set([ExactKey(Self.composed), ExactKey(Self.decomposed), ExactKey(Self.composed)]).count == 2)
    }

    /// Issue 31: bytes are compared at once where the strings hold them
    /// contiguously, one at a time otherwise; both say the same.
    @Test func bytesAreComparedWhateverTheStringsStorage() {
        let long = String(repeating: "conversationUpdated ", count: 40)
        var copy = long
        copy.makeContiguousUTF8()
        #expect(long.isSameIdentifier(as: copy))
        #expect(!long.isSameIdentifier(as: String(long.dropLast()) + "!")) // same length, last byte differs
        #expect(!long.isSameIdentifier(as: "!" + String(long.dropFirst()))) // same length, first byte differs
        #expect(!long.isSameIdentifier(as: String(long.dropLast()))) // a prefix
        #expect("".isSameIdentifier(as: ""))
        #expect(!"".isSameIdentifier(as: "a"))
        // A substring's copy and a small (inline) string hold their bytes contiguously too.
        #expect(String(long.prefix(5)).isSameIdentifier(as: "conve"))
        #expect(ExactKey(long) == ExactKey(copy))
        #expect(ExactKey("m-1") != ExactKey("m-2"))
    }

    /// The reported leak: Bob creates `cafe\u{301}`, Alice `caf\u{E9}`. They
    /// are one id, held by Bob; Alice gets a conversation of her own under a
    /// server-chosen id, and neither catch-up holds the other's message.
    @Test func equivalentConversationIdsNeverLeakAcrossUsers() throws {
        let world = try TestWorld()
        let bob = try world.tokens("bob")
        let alice = try world.tokens("alice")
        let (bobs, _) = try world.send("bob's text", id: "m-bob", in: Self.decomposed, token: bob.accessToken)
        let (alices, _) = try world.send("ALICE SECRET", id: "m-alice", in: Self.composed, token: alice.accessToken)
        #expect(bobs.id.utf8.elementsEqual(Self.composed.utf8)) // stored and answered in NFC
        #expect(!alices.id.isSameIdentifier(as: bobs.id)) // Alice's is another conversation

        func texts(_ userId: String) -> [String] {
            world.backend.events(userId: userId).compactMap { event in
                if case .messageCreated(let message) = event.kind, case .text(let text) = message.content { return text }
                return nil
            }
        }
        #expect(texts("bob") == ["bob's text"])
        #expect(texts("alice") == ["ALICE SECRET"])

        // Bob reading either spelling gets his own conversation, never Alice's.
        for spelling in [Self.composed, Self.decomposed] {
            let response = try world.handle(.listMessages(conversationId: spelling, cursor: nil, limit: 20), token: bob.accessToken).get()
            guard case .messages(let page) = response else {
                Issue.record("unexpected \(response)")
                return
            }
            #expect(page.elements.map(\.id) == ["m-bob"])
        }
    }

    /// Users: `jos\u{E9}` and `jose\u{301}` are one user, whichever spelling
    /// signs in, and a revoke by either spelling is a revoke of that user only.
    @Test func equivalentUserIdsAreOneUser() throws {
        let world = try TestWorld()
        let first = try world.tokens("jos\u{E9}")
        let second = try world.tokens("jose\u{301}")
        let me = { (token: String) throws -> String in
            guard case .user(let user) = try world.handle(.getCurrentUser, token: token).get() else { return "?" }
            return user.id
        }
        #expect(try me(first.accessToken).utf8.elementsEqual("jos\u{E9}".utf8))
        #expect(try me(second.accessToken).utf8.elementsEqual("jos\u{E9}".utf8))
        #expect(world.backend.users().filter { $0.id == "jos\u{E9}" }.count == 1)

        let other = try world.tokens("jose")
        try world.backend.scope(apiKey: TestWorld.apiKey).revokeTokens(userId: "jose\u{301}")
        #expect(world.errorCode(.getCurrentUser, token: first.accessToken) != nil)
        #expect(try me(other.accessToken) == "jose")
    }

    /// Realtime subscriptions are found by the bytes of the user id: a
    /// revoke of one user closes that user's streams only.
    @Test func subscriptionsAreKeyedByBytes() {
        var table = SubscriptionTable()
        let sink: @Sendable (WireEvent) -> Bool = { _ in true }
        table[SubscriptionID(rawValue: 1)] = Subscription(userId: "jos\u{E9}", sink: sink, lastDelivered: 0)
        table[SubscriptionID(rawValue: 2)] = Subscription(userId: "jose\u{301}", sink: sink, lastDelivered: 0)
        #expect(table.ids(ofUser: "jos\u{E9}").map(\.rawValue) == [1])
        #expect(table.ids(ofUser: "jose\u{301}").map(\.rawValue) == [2])
    }

    /// Every identifier in a request is normalised; free text is not.
    @Test func requestsAreNormalisedButNotTheirText() {
        let request = WireRequest.sendMessage(
            conversationId: Self.decomposed, createConversation: NewConversation(title: Self.decomposed),
            message: NewMessage(id: "m" + Self.decomposed, content: .text(Self.decomposed), replyTo: Self.decomposed))
        guard case .sendMessage(let conversationId, let create, let message) = request.normalizingIdentifiers() else {
            Issue.record("not a send")
            return
        }
        #expect(conversationId.isSameIdentifier(as: Self.composed))
        #expect(message.id.isSameIdentifier(as: "m" + Self.composed))
        #expect(message.replyTo?.isSameIdentifier(as: Self.composed) == true)
        #expect(create?.title?.isSameIdentifier(as: Self.decomposed) == true)
        #expect(message.content == .text(Self.decomposed))
        if case .text(let text) = message.content { #expect(text.isSameIdentifier(as: Self.decomposed)) }
    }

    /// A user signature is over the NFC spelling: either spelling verifies.
    @Test func signaturesAreOverTheNormalisedId() {
        let signature = UserSignature.sign(userId: "jose\u{301}", secret: "s")
        #expect(UserSignature.isValid(signature, userId: "jos\u{E9}", secret: "s"))
        #expect(signature == UserSignature.sign(userId: "jos\u{E9}", secret: "s"))
    }
}
