import ChatSDKNetwork
import ChatServer
import Foundation
import Testing

/// The JSON API as any HTTP client sees it: authentication, authorization,
/// and 4xx JSON errors for bad input (SPEC S3).
@Suite struct HTTPAPITests {
    static let key = ["X-Api-Key": ChatServer.demoApiKey]

    static func bearer(_ token: String) -> [String: String] {
        key.merging(["Authorization": "Bearer \(token)"]) { $1 }
    }

    static let send = #"{"createConversation": {"title": "t"}, "message": {"id": "m1", "content": {"text": {"_0": "hello"}}}}"#

    @Test func healthNeedsNothing() async throws {
        let server = try await TestServer.start()
        let result = try await http("GET", server.baseURL + "/health")
        await server.stop()
        #expect(result.status == 200)
        #expect(result.json?["status"] as? String == "ok")
    }

    @Test func everyUserRouteNeedsAnApiKeyAndAToken() async throws {
        let server = try await TestServer.start()
        let base = server.baseURL
        let noKey = try await http("GET", base + "/v1/conversations")
        let badKey = try await http("GET", base + "/v1/conversations", headers: ["X-Api-Key": "nope", "Authorization": "Bearer x"])
        let noToken = try await http("GET", base + "/v1/conversations", headers: Self.key)
        let badToken = try await http("GET", base + "/v1/conversations", headers: Self.bearer("at-forged"))
        let basic = try await http("GET", base + "/v1/conversations", headers: Self.key.merging(["Authorization": "Basic eDp5"]) { $1 })
        let send = try await http("POST", base + "/v1/conversations/c1/messages", headers: Self.key, body: Self.send)
        let events = try await http("GET", base + "/v1/events", headers: Self.key)
        await server.stop()
        #expect(noKey.status == 401 && noKey.code == "invalidApiKey")
        #expect(badKey.status == 401 && badKey.code == "invalidApiKey")
        #expect(noToken.status == 401 && noToken.code == "invalidToken")
        #expect(badToken.status == 401 && badToken.code == "invalidToken")
        #expect(basic.status == 401 && basic.code == "invalidToken")
        #expect(send.status == 401 && send.code == "invalidToken")
        #expect(events.status == 401 && events.code == "invalidToken")
    }

    /// Issue 26: what schemathesis found once its runs authenticated.
    @Test func aReplyToNoMessageAndAnAnonymousSignInWhereTokensAreRequiredAreRefused() async throws {
        let server = try await TestServer.start()
        let base = server.baseURL
        let alice = try await server.app.issueTokens(userId: "alice")
        _ = try await http("POST", base + "/v1/conversations/c1/messages", headers: Self.bearer(alice.accessToken), body: Self.send)
        let reply = try await http(
            "POST", base + "/v1/conversations/c1/messages", headers: Self.bearer(alice.accessToken),
            body: #"{"message": {"id": "m2", "replyTo": "m-none", "content": {"text": {"_0": "re"}}}}"#)
        let goodReply = try await http(
            "POST", base + "/v1/conversations/c1/messages", headers: Self.bearer(alice.accessToken),
            body: #"{"message": {"id": "m3", "replyTo": "m1", "content": {"text": {"_0": "re"}}}}"#)
        try await server.app.updateSettings([.init(key: "requireAccessToken", value: "true")])
        let anonymous = try await http("POST", base + "/v1/identity", headers: Self.key, body: #"{"loginAnonymous": {}}"#)
        await server.stop()
        #expect(reply.status == 404 && reply.code == "unknownMessage")
        #expect(goodReply.status == 200)
        #expect(anonymous.status == 403 && anonymous.code == "accessTokenRequired")
    }

    @Test func aUserReachesOnlyTheirOwnConversations() async throws {
        let server = try await TestServer.start()
        let base = server.baseURL
        let alice = try await server.app.issueTokens(userId: "alice")
        let bob = try await server.app.issueTokens(userId: "bob")
        let created = try await http(
            "POST", base + "/v1/conversations/c-alice/messages", headers: Self.bearer(alice.accessToken), body: Self.send)
        let own = try await http("GET", base + "/v1/conversations/c-alice", headers: Self.bearer(alice.accessToken))
        let get = try await http("GET", base + "/v1/conversations/c-alice", headers: Self.bearer(bob.accessToken))
        let list = try await http("GET", base + "/v1/conversations/c-alice/messages", headers: Self.bearer(bob.accessToken))
        let since = try await http("GET", base + "/v1/conversations/c-alice/messages/since/0", headers: Self.bearer(bob.accessToken))
        let typing = try await http(
            "POST", base + "/v1/conversations/c-alice/typing", headers: Self.bearer(bob.accessToken), body: #"{"isTyping": true}"#)
        let bobsList = try await http("GET", base + "/v1/conversations", headers: Self.bearer(bob.accessToken))
        let unknown = try await http("GET", base + "/v1/conversations/c-nobody", headers: Self.bearer(bob.accessToken))
        // Creating a conversation under Alice's id gives Bob his own, under
        // an id the server mints (issue 13, item 10).
        let post = try await http(
            "POST", base + "/v1/conversations/c-alice/messages", headers: Self.bearer(bob.accessToken),
            body: Self.send.replacingOccurrences(of: "m1", with: "m2"))
        let alicesMessages = try await http("GET", base + "/v1/conversations/c-alice/messages", headers: Self.bearer(alice.accessToken))
        await server.stop()
        #expect(created.status == 200)
        #expect(own.status == 200 && own.json?["id"] as? String == "c-alice")
        for answer in [get, list, since, typing] {
            #expect(answer.status == 403 && answer.code == "forbidden")
        }
        #expect((bobsList.json?["elements"] as? [Any])?.isEmpty == true)
        #expect(unknown.status == 404 && unknown.code == "unknownConversation")
        let bobsConversation = (post.json?["conversation"] as? [String: Any])?["id"] as? String
        #expect(post.status == 200 && bobsConversation != nil && bobsConversation != "c-alice", "\(post.json ?? [:])")
        #expect((alicesMessages.json?["elements"] as? [Any])?.count == 1)
    }

    @Test func badInputGets4xxWithAJSONBody() async throws {
        let server = try await TestServer.start()
        let base = server.baseURL
        let tokens = try await server.app.issueTokens(userId: "alice")
        let auth = Self.bearer(tokens.accessToken)
        let conversation = base + "/v1/conversations/c1"
        var answers: [(String, HTTPResult)] = []
        func check(_ label: String, _ result: HTTPResult) { answers.append((label, result)) }
        check("malformed JSON", try await http("POST", conversation + "/messages", headers: auth, body: "{not json"))
        check("wrong type", try await http("POST", conversation + "/messages", headers: auth, body: #"{"message": 5}"#))
        check("missing field", try await http("POST", conversation + "/messages", headers: auth, body: #"{"message": {"id": "m"}}"#))
        check("no body", try await http("POST", conversation + "/messages", headers: auth))
        check(
            "empty id",
            try await http(
                "POST", conversation + "/messages", headers: auth,
                body: Self.send.replacingOccurrences(of: #""id": "m1""#, with: #""id": """#)))
        check("array body", try await http("POST", conversation + "/typing", headers: auth, body: "[]"))
        check("id over 256", try await http("GET", base + "/v1/conversations/" + String(repeating: "c", count: 257), headers: auth))
        check("id with a control character", try await http("GET", base + "/v1/conversations/c%01", headers: auth))
        check(
            "identity with an unknown key",
            try await http(
                "POST", base + "/v1/identity", headers: auth,
                body: #"{"logout": {}, "extra": 1}"#))
        check(
            "content with two cases",
            try await http(
                "POST", conversation + "/messages", headers: auth,
                body: #"""
                    {"message": {"id": "m9", "content": {"text": {"_0": "hi"}, "attachment": 5}}}
                    """#))
        check("device id not ASCII", try await http("GET", base + "/v1/conversations", headers: auth.merging(["X-Device-Id": "dé"]) { $1 }))
        check("bad limit", try await http("GET", base + "/v1/conversations?limit=abc", headers: auth))
        check("zero limit", try await http("GET", base + "/v1/conversations?limit=0", headers: auth))
        check("bad cursor", try await http("GET", base + "/v1/conversations?cursor=zzz", headers: auth))
        check("bad seq", try await http("GET", conversation + "/messages/since/-1", headers: auth))
        check("huge seq", try await http("GET", conversation + "/messages/since/99999999999999999999999", headers: auth))
        check("bad after", try await http("GET", base + "/v1/events?after=x", headers: auth))
        check("unknown route", try await http("GET", base + "/v1/nothing", headers: auth))
        check("wrong method", try await http("DELETE", base + "/v1/conversations", headers: auth))
        check(
            "refresh garbage", try await http("POST", base + "/v1/auth/refresh", headers: Self.key, body: #"{"refreshToken": "rt-nope"}"#))
        check("too large", try await http("POST", conversation + "/messages", headers: auth, data: Data(repeating: 0x20, count: 2 << 20)))
        check("no app secret", try await http("POST", base + "/v1/app/tokens", headers: Self.key, body: #"{"userId": "eve"}"#))
        check(
            "wrong app secret",
            try await http(
                "POST", base + "/v1/app/tokens", headers: Self.key.merging(["X-App-Secret": "guess"]) { $1 },
                body: #"{"userId": "eve"}"#))
        let app = Self.key.merging(["X-App-Secret": ChatServer.demoSecret]) { $1 }
        check(
            "agent, unknown conversation",
            try await http("POST", base + "/v1/agent/conversations/nope/say", headers: app, body: #"{"text": "hi"}"#))
        check(
            "agent, empty name",
            try await http("POST", base + "/v1/agent/conversations/nope/read", headers: app, body: #"{"agentName": ""}"#))
        check("not an upgrade", try await http("GET", base + "/v1/events", headers: auth))
        await server.stop()

        for (label, result) in answers {
            #expect((400..<500).contains(result.status), "\(label): \(result.status)")
            #expect(result.isJSONError, "\(label): \(String(decoding: result.body, as: UTF8.self))")
        }
        let byLabel = Dictionary(answers, uniquingKeysWith: { a, _ in a })
        #expect(byLabel["malformed JSON"]?.code == "badRequest")
        #expect(byLabel["unknown route"]?.status == 404)
        #expect(byLabel["wrong method"]?.status == 405)
        #expect(byLabel["wrong method"]?.headers["allow"] == "GET")
        #expect(byLabel["too large"]?.status == 413)
        #expect(byLabel["refresh garbage"]?.code == "invalidRefreshToken")
        #expect(byLabel["wrong app secret"]?.status == 401)
        #expect(byLabel["agent, unknown conversation"]?.status == 404)
        #expect(byLabel["not an upgrade"]?.status == 426)
        // Each status has a code of its own, never a generic one (issue 13).
        #expect(byLabel["unknown route"]?.code == "unknownRoute")
        #expect(byLabel["wrong method"]?.code == "methodNotAllowed")
        #expect(byLabel["too large"]?.code == "requestTooLarge")
        #expect(byLabel["no app secret"]?.status == 401 && byLabel["no app secret"]?.code == "invalidAppSecret")
        #expect(byLabel["wrong app secret"]?.code == "invalidAppSecret")
        #expect(byLabel["not an upgrade"]?.code == "upgradeRequired")
        // The limits docs/openapi.json states for ids in paths and headers.
        for label in [
            "id over 256", "id with a control character", "device id not ASCII", "identity with an unknown key", "content with two cases",
        ] {
            #expect(byLabel[label]?.status == 400 && byLabel[label]?.code == "badRequest", "\(label)")
        }
    }

    /// Following every `nextCursor` of `messagesSince` (as `?cursor=`)
    /// reaches the last page, each message once, no page twice.
    @Test func messagesSincePagesEnd() async throws {
        let server = try await TestServer.start()
        let tokens = try await server.app.issueTokens(userId: "alice")
        let auth = Self.bearer(tokens.accessToken)
        let conversation = server.baseURL + "/v1/conversations/c1"
        for index in 1...7 {
            let body = #"{"createConversation": {}, "message": {"id": "m\#(index)", "content": {"text": {"_0": "n\#(index)"}}}}"#
            #expect(try await http("POST", conversation + "/messages", headers: auth, body: body).status == 200)
        }
        var seqs: [Int] = []
        var pages: [String] = []
        var cursors: [String] = []
        var url = conversation + "/messages/since/2?limit=3"
        while pages.count < 10 {
            let page = try await http("GET", url, headers: auth)
            #expect(page.status == 200, "\(String(decoding: page.body, as: UTF8.self))")
            let body = String(decoding: page.body, as: UTF8.self)
            #expect(!pages.contains(body), "a page came twice")
            pages.append(body)
            seqs += (page.json?["elements"] as? [[String: Any]] ?? []).compactMap { $0["seq"] as? Int }
            guard let next = page.json?["nextCursor"] as? String else { break }
            cursors.append(next)
            url = conversation + "/messages/since/2?limit=3&cursor=" + next
        }
        let wrongKind = try await http("GET", conversation + "/messages?limit=1", headers: auth)
        let foreign = try await http(
            "GET", conversation + "/messages/since/0?cursor=" + (wrongKind.json?["nextCursor"] as? String ?? ""), headers: auth)
        await server.stop()
        #expect(seqs == [3, 4, 5, 6, 7])
        #expect(pages.count == 2)
        #expect(cursors == ["5"], "the cursor is the last seq of the page")
        #expect(foreign.status == 400 && foreign.code == "badRequest", "a listMessages cursor is not a since cursor")
    }

    @Test func appAndAgentRoutesWork() async throws {
        let server = try await TestServer.start()
        let base = server.baseURL
        let tokens = try await server.app.issueTokens(userId: "alice")
        _ = try await http("POST", base + "/v1/conversations/c1/messages", headers: Self.bearer(tokens.accessToken), body: Self.send)
        let said = try await server.app.agentSayMessage("Hello from the agent", in: "c1", agentName: "Dr. Who")
        try await server.app.agentTyping(true, in: "c1")
        try await server.app.agentRead(in: "c1")
        let messages = try await http("GET", base + "/v1/conversations/c1/messages/since/0", headers: Self.bearer(tokens.accessToken))
        let refreshed = try await http(
            "POST", base + "/v1/auth/refresh", headers: Self.key, body: #"{"refreshToken": "\#(tokens.refreshToken)"}"#)
        let readSeq = try server.server.backend.providerReadSeq(conversationId: "c1")
        await server.stop()
        #expect(said.seq == 2)
        #expect((messages.json?["elements"] as? [Any])?.count == 2)
        #expect(refreshed.status == 200 && refreshed.json?["accessToken"] is String)
        #expect(readSeq == 2)
    }
}
