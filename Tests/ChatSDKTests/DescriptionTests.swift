import Foundation
import Testing

@testable import ChatSDK

/// Events and model values print on one line each, not as struct dumps.
@Suite struct DescriptionTests {
    let message = Message(
        id: "m-1", conversationId: "c-1", seq: 3, author: .user(id: "alice"), content: .text("hi\nthere"), replyTo: nil,
        createdAt: Date(timeIntervalSince1970: 0), state: .sent)

    @Test func aMessagePrintsItsIdPlaceAuthorStateAndContent() {
        #expect("\(message)" == #"Message(m-1, in c-1, seq 3, user(alice), sent, text("hi\nthere"))"#)
        var unsent = message
        unsent.seq = nil
        unsent.state = .failed(ChatError(.networkFailure, "down"))
        unsent.content = .attachment(kind: .image, mimeType: "image/png", size: 1200, fileName: "a.png")
        #expect("\(unsent)" == #"Message(m-1, in c-1, user(alice), failed(networkFailure), image(image/png, 1200 bytes, "a.png"))"#)
    }

    @Test func aConversationPrintsWhatAListShows() {
        let conversation = Conversation(
            id: "c-1", title: "Help", isLocal: true, createdAt: Date(timeIntervalSince1970: 0),
            updatedAt: Date(timeIntervalSince1970: 0), messageCount: 1, lastMessagePreview: "hi", providerTyping: true)
        #expect("\(conversation)" == #"Conversation(c-1, "Help", 1 message, local, typing)"#)
    }

    @Test func eventsPrintOnOneLine() {
        #expect("\(ChatEvent.messageStateChanged(message))" == "messageStateChanged(m-1, sent)")
        #expect(
            "\(ChatEvent.sessionChanged(.authenticated(userId: "alice", via: .jwt)))" == "sessionChanged(authenticated(alice, via: jwt))")
        #expect(
            "\(ChatEvent.authenticationFailed(ChatError(.expiredJWT, "The JWT has expired")))"
                == "authenticationFailed(expiredJWT: The JWT has expired)")
        #expect("\(ChatEvent.warning("no disk cache"))" == #"warning("no disk cache")"#)
        #expect(!"\(ChatEvent.messageStateChanged(message))".contains("\n"))
    }
}
