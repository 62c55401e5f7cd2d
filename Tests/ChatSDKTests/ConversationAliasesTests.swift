import ChatCore
import Testing

@testable import ChatSDK

/// The translation between the app's conversation ids and the server's.
@Suite struct ConversationAliasesTests {
    let hello = NewMessage(id: "m1", content: .text("hello"), replyTo: nil)

    func conversation(_ id: String) -> WireConversation {
        WireConversation(
            id: id, title: nil, createdAt: .simulationEpoch, updatedAt: .simulationEpoch, lastSeq: 1, lastMessagePreview: nil,
            providerTypingUntil: nil, providerReadSeq: nil)
    }

    func message(in conversationId: String) -> WireMessage {
        WireMessage(
            id: "m1", conversationId: conversationId, seq: 1, author: .user(id: "alice"), content: .text("hello"), replyTo: nil,
            createdAt: .simulationEpoch)
    }

    @Test func aSendThatCreatedTheConversationElsewhereRevealsThePair() {
        let aliases = ConversationAliases()
        let create = WireRequest.sendMessage(conversationId: "c-1", createConversation: NewConversation(title: nil), message: hello)
        let minted = aliases.minted(by: create, answer: .sent(conversation: conversation("c-9"), message: message(in: "c-9")))
        #expect(minted?.localId == "c-1")
        #expect(minted?.serverId == "c-9")
        // Under the id asked for, or without create, nothing is learned.
        #expect(aliases.minted(by: create, answer: .sent(conversation: conversation("c-1"), message: message(in: "c-1"))) == nil)
        let plain = WireRequest.sendMessage(conversationId: "c-1", createConversation: nil, message: hello)
        #expect(aliases.minted(by: plain, answer: .sent(conversation: conversation("c-9"), message: message(in: "c-9"))) == nil)
        // Once known, the same answer reveals nothing new.
        let known = ConversationAliases(["c-1": "c-9"])
        #expect(known.minted(by: create, answer: .sent(conversation: conversation("c-9"), message: message(in: "c-9"))) == nil)
    }

    @Test func requestsLeaveWithTheServersIdsAndAnswersComeBackWithTheApps() {
        let aliases = ConversationAliases(["c-1": "c-9"])
        #expect(aliases.outgoing(.getConversation(id: "c-1")) == .getConversation(id: "c-9"))
        #expect(
            aliases.outgoing(.listMessages(conversationId: "c-1", cursor: "x", limit: 5))
                == .listMessages(conversationId: "c-9", cursor: "x", limit: 5))
        #expect(
            aliases.outgoing(.messagesSince(conversationId: "c-1", afterSeq: 3, limit: 5))
                == .messagesSince(conversationId: "c-9", afterSeq: 3, limit: 5))
        #expect(
            aliases.outgoing(.sendMessage(conversationId: "c-1", createConversation: nil, message: hello))
                == .sendMessage(conversationId: "c-9", createConversation: nil, message: hello))
        #expect(aliases.outgoing(.setTyping(conversationId: "c-1", isTyping: true)) == .setTyping(conversationId: "c-9", isTyping: true))
        #expect(aliases.outgoing(.getConversation(id: "c-2")) == .getConversation(id: "c-2"))

        #expect(aliases.incoming(.conversation(conversation("c-9"))) == .conversation(conversation("c-1")))
        #expect(
            aliases.incoming(.conversations(WirePage(elements: [conversation("c-9"), conversation("c-2")], nextCursor: "n")))
                == .conversations(WirePage(elements: [conversation("c-1"), conversation("c-2")], nextCursor: "n")))
        #expect(
            aliases.incoming(.messages(WirePage(elements: [message(in: "c-9")], nextCursor: nil)))
                == .messages(WirePage(elements: [message(in: "c-1")], nextCursor: nil)))
        #expect(
            aliases.incoming(.sent(conversation: conversation("c-9"), message: message(in: "c-9")))
                == .sent(conversation: conversation("c-1"), message: message(in: "c-1")))
    }

    @Test func eventsComeBackWithTheAppsIds() {
        let aliases = ConversationAliases(["c-1": "c-9"])
        #expect(
            aliases.incoming(WireEvent(userSeq: 4, kind: .messageCreated(message(in: "c-9"))))
                == WireEvent(userSeq: 4, kind: .messageCreated(message(in: "c-1"))))
        #expect(
            aliases.incoming(WireEvent(userSeq: 5, kind: .conversationUpdated(conversation("c-9"))))
                == WireEvent(userSeq: 5, kind: .conversationUpdated(conversation("c-1"))))
        #expect(
            aliases.incoming(WireEvent(userSeq: 6, kind: .typing(conversationId: "c-9", providerName: "Dr", until: nil)))
                == WireEvent(userSeq: 6, kind: .typing(conversationId: "c-1", providerName: "Dr", until: nil)))
        #expect(
            aliases.incoming(WireEvent(userSeq: 7, kind: .typing(conversationId: "c-2", providerName: "Dr", until: nil)))
                == WireEvent(userSeq: 7, kind: .typing(conversationId: "c-2", providerName: "Dr", until: nil)))
    }
}
