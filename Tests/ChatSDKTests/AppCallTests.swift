import Foundation
import Testing

@testable import ChatSDK

/// Each recorded call as a value (issue 30): it goes to JSON and back
/// unchanged, and its text is what the recorder wrote before it had values.
@Suite struct AppCallTests {
    /// Every case, with the text the recorder wrote for the same call.
    static let cases: [(AppCall, String)] = [
        (
            .client(cacheMode: "memory", autoResend: true, pageSize: 20, content: "kept"),
            "ChatClient(configuration: cacheMode: .memory, autoResend: true, pageSize: 20, content: .kept)"
        ),
        (.setCurrentUser(userId: "alice"), #"setCurrentUser(userId: "alice")"#),
        (.clearCurrentUser, "clearCurrentUser()"),
        (.deauthorizeUser, "deauthorizeUser()"),
        (.loginUser(jwt: "<secret#2>"), #"loginUser(jwt: "<secret#2>")"#),
        (.loginAnonymous, "loginAnonymous()"),
        (.connect(userId: "bob", credential: .userId), #"connect(userId: "bob")"#),
        (.connect(userId: "bob", credential: .accessToken("<secret#2>")), #"connect(userId: "bob", accessToken: "<secret#2>")"#),
        (.connect(userId: "bob", credential: .sessionToken("<secret#3>")), #"connect(userId: "bob", sessionToken: "<secret#3>")"#),
        (.disconnect, "disconnect()"),
        (.authorize(user: "u-1", auth: nil), #"authorize(user: "u-1", auth: nil)"#),
        (
            .authorize(
                user: "u-1",
                auth: AppCall.Auth(
                    token: "<secret#2>", scheme: "access", headers: ["X-Tenant": "<secret#4>", "A": "<secret#3>"], signature: "<secret#5>")),
            #"authorize(user: "u-1", auth: ChatAuth(token: "<secret#2>", scheme: "access", headers: ["A": "<secret#3>", "X-Tenant": "<secret#4>"], signature: "<secret#5>"))"#
        ),
        (
            .authorize(user: "u-1", auth: AppCall.Auth(token: nil, scheme: nil, headers: [:], signature: nil)),
            #"authorize(user: "u-1", auth: ChatAuth())"#
        ),
        (.logout, "logout()"),
        (.prefill(message: "Hello"), #"prefill(message: "Hello")"#),
        (.registerPushToken(token: "<secret#2>"), #"registerPushToken("<secret#2>")"#),
        (.unregisterPushToken, "unregisterPushToken()"),
        (.startConversation(id: nil, title: "Knee pain"), #"startConversation(id: nil, title: "Knee pain")"#),
        (.startConversation(id: "c-1", title: nil), #"startConversation(id: "c-1", title: nil)"#),
        (.sendMessage(content: .text("hi"), replyingTo: nil, conversation: "c-1"), #"sendMessage(.text("hi"), in: "c-1")"#),
        (
            .sendMessage(content: .text("hi"), replyingTo: "m-1", conversation: "c-1"),
            #"sendMessage(.text("hi"), replyingTo: "m-1", in: "c-1")"#
        ),
        (
            .sendMessage(content: .attachment(kind: "image", mime: "image/png", bytes: 2048), replyingTo: nil, conversation: "c-1"),
            #"sendMessage(.attachment(.image, "image/png", 2048 bytes), in: "c-1")"#
        ),
        (.retrySending(itemId: "m-1"), #"retrySending(itemId: "m-1")"#),
        (.setIsTyping(isTyping: true, conversation: "c-1"), #"setIsTyping(true, in: "c-1")"#),
        (.networkReachabilityChanged(isReachable: false), "networkReachabilityChanged(false)"),
        (.applicationDidEnterBackground, "applicationDidEnterBackground()"),
        (.applicationWillEnterForeground, "applicationWillEnterForeground()"),
        (.shutdown, "shutdown()"),
        (.watchConversations, "watchConversations()"),
        (.watchConversation(id: "c-1"), #"watchConversation(withId: "c-1")"#),
        (.watchItems(conversation: "c-1"), #"watchItems(ofConversationWithId: "c-1")"#),
        (.cancelWatcher(watcher: 2), "w3.cancel()"),
        (.loadMore(watcher: 0), "w1.loadMore()"),
    ]

    @Test(arguments: cases.indices)
    func roundTripsAndRendersAsBefore(_ index: Int) throws {
        let (call, text) = Self.cases[index]
        #expect(call.text == text)
        #expect(text.hasPrefix(call.name + "(") || text.hasSuffix(".\(call.name)()"))
        let json = try #require(call.json)
        #expect(AppCall(json: json) == call, "\(json)")
    }

    /// Texts the recorded text cannot carry back (quotes, parentheses, line
    /// breaks) go through JSON as they are; the text shows them unescaped.
    @Test func awkwardTextsRoundTrip() throws {
        let call = AppCall.sendMessage(content: .text("say \"hi\"), in: \"x\")\nbye"), replyingTo: nil, conversation: "c-(\"1\")")
        #expect(AppCall(json: try #require(call.json)) == call)
        #expect(call.text == "sendMessage(.text(\"say \"hi\"), in: \"x\")\nbye\"), in: \"c-(\"1\")\")")
    }

    /// Every case is above: a new one needs its line.
    @Test func everyCaseIsCovered() {
        #expect(Set(Self.cases.map(\.0.name)).count == 26)
    }
}
