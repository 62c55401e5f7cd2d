internal import ChatCore
import ChatSDK
import Foundation
import OpenAPIRuntime

/// Each SDK request as the operation of docs/openapi.json that carries it,
/// through the client generated from the document: a path, parameter or
/// body that disagrees with it does not compile. ChatCore's wire types are
/// converted to and from the generated ones here, at the transport's edge
/// (``JSONBridge``: the generated decoder checks the document's schema).
extension HTTPTransport {
    /// Sends `request` through `client`, returning its answer as a ``WireResponse``.
    static func send(_ request: WireRequest, through client: Client) async throws -> WireResponse {
        switch request {
        case .refresh(let refreshToken):
            let answer = try await client.refresh(
                body: .json(.init(refreshToken: refreshToken)))
            return .tokens(try JSONBridge.convert(try answer.ok.body.json))
        case .listConversations(let cursor, let limit):
            let answer = try await client.listConversations(
                query: .init(cursor: cursor, limit: Int64(limit)))
            return .conversations(try JSONBridge.convert(try answer.ok.body.json))
        case .getConversation(let id):
            let answer = try await client.getConversation(path: .init(id: id))
            return .conversation(try JSONBridge.convert(try answer.ok.body.json))
        case .listMessages(let conversationId, let cursor, let limit):
            let answer = try await client.listMessages(
                path: .init(id: conversationId), query: .init(cursor: cursor, limit: Int64(limit)),
            )
            return .messages(try JSONBridge.convert(try answer.ok.body.json))
        case .messagesSince(let conversationId, let afterSeq, let limit):
            let answer = try await client.messagesSince(
                path: .init(id: conversationId, seq: afterSeq), query: .init(limit: Int64(limit)),
            )
            return .messages(try JSONBridge.convert(try answer.ok.body.json))
        case .sendMessage(let conversationId, let createConversation, let message):
            let payload = HTTPWire.SendMessageBody(createConversation: createConversation, message: message)
            let answer = try await client.sendMessage(
                path: .init(id: conversationId), body: .json(try Self.body(payload, of: "sendMessage"))
            )
            let sent = try answer.ok.body.json
            return .sent(conversation: try JSONBridge.convert(sent.conversation), message: try JSONBridge.convert(sent.message))
        case .setTyping(let conversationId, let isTyping):
            let answer = try await client.setTyping(
                path: .init(id: conversationId), body: .json(.init(isTyping: isTyping)))
            _ = try answer.noContent
            return .ok
        case .loginJWT, .loginAnonymous, .connectUserId, .connectAccessToken, .connectSessionToken, .logout,
            .registerDevice, .unregisterDevice, .getCurrentUser, .updateUser, .uploadProfileImage:
            // Identity requests travel as themselves: the body is the
            // request's JSON, the answer the response's.
            let answer = try await client.identity(
                body: .json(try Self.body(request, of: request.name)))
            return try JSONBridge.convert(try answer.ok.body.json)
        case .uploadAttachment(_, let data):
            // The bytes as they are; CredentialsMiddleware sets their type.
            let answer = try await client.uploadAttachment(body: .any(HTTPBody(data)))
            return .attachment(try JSONBridge.convert(try answer.created.body.json))
        case .attachmentData(let id):
            let answer = try await client.attachmentData(path: .init(id: id))
            let ok = try answer.ok
            let data = try await Data(collecting: try ok.body.any, upTo: Int(WireLimits.maxAttachmentBytes))
            return .attachmentData(mimeType: ok.headers.xAttachmentType, data: data)
        case .appLimits:
            return .limits(try JSONBridge.convert(try await client.limits().ok.body.json))
        }
    }

    /// A request body as the document's type. ChatCore's value always
    /// matches it; if it did not, that is said here rather than by the server.
    static func body<Target: Decodable>(_ value: some Encodable, of operation: String) throws -> Target {
        do {
            return try JSONBridge.convert(value)
        } catch {
            throw TransportError(.failed, "The request \(operation) does not match docs/openapi.json: \(error)")
        }
    }
}
