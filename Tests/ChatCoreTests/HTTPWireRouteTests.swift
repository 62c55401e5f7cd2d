import Foundation
import Testing

@testable import ChatCore

/// `route(for:withBody: false)` is the route without its body: what a
/// request's summary needs, without encoding its JSON.
@Suite struct HTTPWireRouteTests {
    static let requests: [WireRequest] = [
        .refresh(refreshToken: "r"),
        .listConversations(cursor: "c", limit: 20),
        .getConversation(id: "c 1/2"),
        .listMessages(conversationId: "c1", cursor: nil, limit: 50),
        .messagesSince(conversationId: "c1", afterSeq: 7, limit: 50),
        .sendMessage(
            conversationId: "c1", createConversation: NewConversation(title: "t"),
            message: NewMessage(id: "m1", content: .text("hi"), replyTo: nil)),
        .setTyping(conversationId: "c1", isTyping: true),
        .loginJWT(jwt: "j"),
        .loginAnonymous,
        .connectUserId(userId: "alice"),
    ]

    @Test(arguments: requests) func aRouteWithoutItsBodyIsTheSameRoute(_ request: WireRequest) {
        let whole = HTTPWire.route(for: request)
        let bare = HTTPWire.route(for: request, withBody: false)
        #expect(bare.body == nil)
        #expect(bare.method == whole.method)
        #expect(bare.path == whole.path)
        #expect(bare.query == whole.query)
    }

    @Test func aRouteWithItsBodyHasItsJSON() throws {
        let route = HTTPWire.route(for: Self.requests[5])
        let body = try #require(route.body)
        #expect(String(decoding: body, as: UTF8.self).contains("\"id\":\"m1\""))
    }

    /// A path segment is percent-encoded as Foundation encodes it; an id
    /// of unreserved characters alone is kept as it is, without asking
    /// Foundation (issue 31).
    @Test func aSegmentIsPercentEncodedOnlyWhereItNeedsIt() {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        for id in ["", "c-89025cc1", "A_z.0~9", "c 1/2", "é", "a%b", "a+b?c#d", "x\u{0}y", "😀", "-._~"] {
            #expect(HTTPWire.segment(id) == id.addingPercentEncoding(withAllowedCharacters: allowed), "\(id)")
        }
    }
}
