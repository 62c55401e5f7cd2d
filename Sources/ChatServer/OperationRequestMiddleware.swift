import ChatAPI
import ChatBackend
import ChatCore
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// The header fields of the request being answered: the credentials the
/// document's security schemes name (`X-Api-Key`, `Authorization`,
/// `X-App-Secret`), which the generator does not make parameters.
enum RequestHeaders {
    @TaskLocal static var current = HTTPFields()
}

/// Runs before each generated operation: refuses an operation of the
/// app's (the document's `AppSecret` scheme) without the app's secret
/// before anything else is read, as before the generated code; reads the body (at most
/// ``JSONBody/maxRequestBytes``, else `requestTooLarge`; an empty one is
/// no body, so that an optional body may be left out) and makes the
/// request's headers ``RequestHeaders/current`` for the handler.
///
/// As before the generated server, a body is read as JSON whatever its
/// `Content-Type` says and the answer is JSON whatever `Accept` says: both
/// headers are left out of what the generated code sees (it would refuse a
/// body with 415, and an answer with 406 after the operation was done).
struct OperationRequestMiddleware: ServerMiddleware {
    let backend: Backend

    /// The operations of the app's backend and the other side's agent.
    static let appOperations: Set<String> = [
        Operations.IssueTokens.id, Operations.DropConnections.id, Operations.AgentSay.id, Operations.AgentTyping.id,
        Operations.AgentRead.id, Operations.AppUsers.id, Operations.AppUserConversations.id, Operations.AppUserSessions.id,
        Operations.AppUserDevices.id, Operations.AppUserPushes.id, Operations.ExpireAccessTokens.id, Operations.RevokeTokens.id,
        Operations.AppConversationMessages.id, Operations.AppSettings.id, Operations.UpdateAppSettings.id,
        Operations.IssueAccessToken.id, Operations.IssueSessionToken.id, Operations.AgentSendAttachment.id,
    ]

    /// The operations whose body is bytes, read by the operation up to the app's limit.
    static let byteOperations: Set<String> = [Operations.UploadAttachment.id, Operations.AgentSendAttachment.id]

    /// The attachment's type as it is (`image/png`), in `X-Attachment-Type`
    /// and as the answer's `Content-Type`: the generated code
    /// percent-encodes a header's string, which is no MIME type, and gives
    /// an answer of the document's `*/*` that range as its type.
    static func plainHeaders(_ response: HTTPResponse, of operationID: String) -> HTTPResponse {
        guard operationID == Operations.AttachmentData.id, let name = HTTPField.Name("X-Attachment-Type"),
            let value = response.headerFields[name], let plain = value.removingPercentEncoding
        else { return response }
        var response = response
        response.headerFields[name] = plain
        response.headerFields[.contentType] = plain
        return response
    }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        if Self.appOperations.contains(operationID) { _ = try ChatServer.requireApp(backend, request.headerFields) }
        var collected: HTTPBody?
        // An upload's bytes are read by its operation, up to the app's limit.
        if Self.byteOperations.contains(operationID) {
            collected = body
        } else if let body {
            let bytes: [UInt8]
            do {
                bytes = try await [UInt8](collecting: body, upTo: JSONBody.maxRequestBytes)
            } catch {
                throw WireError(.requestTooLarge, "The request body is larger than \(JSONBody.maxRequestBytes) bytes")
            }
            collected = bytes.isEmpty ? nil : HTTPBody(bytes)
        }
        var operationRequest = request
        operationRequest.headerFields[.contentType] = nil
        operationRequest.headerFields[.accept] = nil
        let (response, answer) = try await RequestHeaders.$current.withValue(request.headerFields) {
            try await next(operationRequest, collected, metadata)
        }
        return (Self.plainHeaders(response, of: operationID), answer)
    }
}
