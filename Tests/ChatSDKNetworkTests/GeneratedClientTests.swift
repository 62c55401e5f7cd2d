import ChatAPI
import ChatCore
import ChatSDK
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import ChatSDKNetwork

/// The SDK's side of the code generated from docs/openapi.json, without a
/// server: ChatCore's wire values go through the document's types and come
/// back equal (a field the document lacks, or names otherwise, fails here),
/// and the client's middlewares set the credentials and read error answers.
@Suite struct GeneratedClientTests {
    static let at = Instant(milliseconds: 1_767_229_200_000)
    static let text = WireMessage(
        id: "m1", conversationId: "c1", seq: 1, author: .user(id: "alice"), content: .text("hello"), replyTo: nil, createdAt: at)
    static let attachment = WireMessage(
        id: "m2", conversationId: "c1", seq: 2, author: .provider(name: "agent"),
        content: .attachment(kind: .image, mimeType: "image/png", size: 12, fileName: "a.png"), replyTo: "m1", createdAt: at)
    static let system = WireMessage(
        id: "m3", conversationId: "c1", seq: 3, author: .system, content: .text("joined"), replyTo: nil, createdAt: at)
    static let conversation = WireConversation(
        id: "c1", title: "t", createdAt: at, updatedAt: at, lastSeq: 3, lastMessagePreview: "joined",
        providerTypingUntil: at, providerReadSeq: 2)
    static let tokens = TokenPair(accessToken: "at-1", accessExpiresAt: at, refreshToken: "rt-1", refreshExpiresAt: at)

    /// `value` through the document's `Generated` type and back.
    func roundTrip<Value: Codable & Equatable, Generated: Codable>(_ value: Value, as: Generated.Type) throws -> Value {
        try JSONBridge.convert(try JSONBridge.convert(value, to: Generated.self), to: Value.self)
    }

    @Test func answersGoThroughTheDocumentsTypesUnchanged() throws {
        for message in [Self.text, Self.attachment, Self.system] {
            #expect(try roundTrip(message, as: Components.Schemas.Message.self) == message)
        }
        #expect(try roundTrip(Self.conversation, as: Components.Schemas.Conversation.self) == Self.conversation)
        let page = WirePage(elements: [Self.text, Self.attachment], nextCursor: "n")
        #expect(try roundTrip(page, as: Components.Schemas.MessagePage.self) == page)
        #expect(try roundTrip(Self.tokens, as: Components.Schemas.TokenPair.self) == Self.tokens)
        let user = WireUser(id: "alice", isAnonymous: false, authenticationType: .jwt, name: "Alice", attributes: ["k": "v"])
        let session = WireResponse.session(tokens: Self.tokens, user: user, mergedConversationIds: ["c0"])
        for answer in [session, .user(user), .ok] {
            #expect(try roundTrip(answer, as: Components.Schemas.IdentityResponse.self) == answer)
        }
    }

    @Test func requestsGoThroughTheDocumentsTypesUnchanged() throws {
        let identity: [WireRequest] = [
            .loginJWT(jwt: "a.b.c"), .loginAnonymous, .connectUserId(userId: "u"), .connectAccessToken(userId: "u", accessToken: "t"),
            .connectSessionToken(userId: "u", sessionToken: "s"), .logout, .registerDevice(pushToken: "p"), .unregisterDevice,
            .getCurrentUser, .updateUser(nickname: "n", profileURL: nil, attributes: ["a": "b"]),
            .uploadProfileImage(mimeType: "image/png", size: 10),
        ]
        for request in identity {
            #expect(try roundTrip(request, as: Components.Schemas.IdentityRequest.self) == request, "\(request.name)")
        }
        let send = HTTPWire.SendMessageBody(
            createConversation: NewConversation(title: "t"), message: NewMessage(id: "m1", content: .text("hi"), replyTo: nil))
        #expect(try roundTrip(send, as: Components.Schemas.SendMessageBody.self) == send)
    }

    @Test func aRequestTheDocumentDoesNotHaveIsRefusedBeforeItIsSent() {
        #expect(throws: TransportError.self) {
            let _: Components.Schemas.IdentityRequest = try HTTPTransport.body(WireRequest.getConversation(id: "c1"), of: "identity")
        }
    }

    @Test func theCredentialsMiddlewareSetsTheSchemesHeaders() async throws {
        let seen = try await CredentialsMiddleware(apiKey: "k", accessToken: "t", appSecret: "s", deviceId: "d 1%").intercept(
            HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/v1/conversations"), body: nil,
            baseURL: URL(string: "http://127.0.0.1:9")!, operationID: "listConversations"
        ) { request, _, _ in (HTTPResponse(status: .ok, headerFields: request.headerFields), nil) }.0.headerFields
        #expect(seen[HTTPField.Name("X-Api-Key")!] == "k")
        #expect(seen[.authorization] == "Bearer t")
        #expect(seen[HTTPField.Name("X-App-Secret")!] == "s")
        #expect(seen[HTTPField.Name("X-Device-Id")!] == "d 1%")
    }

    @Test func anErrorAnswerBecomesTheServersWireError() async throws {
        func answer(_ status: Int, _ body: String) async -> (any Error)? {
            do {
                _ = try await ErrorAnswerMiddleware().intercept(
                    HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/"), body: nil,
                    baseURL: URL(string: "http://127.0.0.1:9")!, operationID: "health"
                ) { _, _, _ in (HTTPResponse(status: .init(code: status)), HTTPBody(body)) }
                return nil
            } catch {
                return error
            }
        }
        #expect(await answer(200, "{}") == nil)
        #expect((await answer(401, #"{"code":"expiredToken","message":"old"}"#) as? WireError) == WireError(.expiredToken, "old"))
        #expect("\(await answer(502, "<html>") ?? TransportError(.failed, ""))" == "The server answered HTTP 502")
    }

    @Test func failuresSayWhetherTheRequestOrItsAnswerFailed() {
        let transport = HTTPTransport(baseURL: "http://127.0.0.1:9")
        let wire = WireError(.forbidden, "no")
        #expect((transport.translate(wire, answered: true, operation: "x") as? WireError) == wire)
        #expect(
            "\(transport.translate(URLError(.badURL), answered: false, operation: "x"))".hasPrefix(
                "The request to http://127.0.0.1:9 failed"))
        #expect(
            "\(transport.translate(URLError(.badURL), answered: true, operation: "x"))".hasPrefix(
                "The server's answer to x could not be read"))
        #expect(transport.translate(CancellationError(), answered: false, operation: "x") is CancellationError)
    }
}

extension GeneratedClientTests {
    @Test func aSettingTheDocumentDoesNotListIsRefusedAsTheServerWould() throws {
        #expect(throws: WireError.self) {
            try AppBackendClient.settingsBody([.init(key: "typingTTL", value: "1s"), .init(key: "colour", value: "b")])
        }
        do {
            _ = try AppBackendClient.settingsBody([.init(key: "colour", value: "blue")])
        } catch let error as WireError {
            #expect(error.code == .badRequest && error.message.hasPrefix("Unknown setting \"colour\"; the settings are allowUserIdOnly, "))
        }
        let body = try AppBackendClient.settingsBody([.init(key: "typingTTL", value: "1s")])
        #expect(try JSONBridge.convert(body, to: HTTPWire.AppSettingsBody.self).settings == [.init(key: "typingTTL", value: "1s")])
    }
}
