import ChatAPI
import ChatBackend
import ChatCore
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Attachments' bytes (A14, D6): `POST /v1/attachments` and
/// `GET /v1/attachments/{id}`.
extension APIHandler {
    /// Checks the credentials, the type and the declared size before a byte
    /// of the body is read, then reads at most the app's limit.
    func uploadAttachment(_ input: Operations.UploadAttachment.Input) async throws -> Operations.UploadAttachment.Output {
        let headers = RequestHeaders.current
        guard let apiKey = ChatServer.header(headers, HTTPWire.Header.apiKey), !apiKey.isEmpty else {
            throw WireError(.invalidApiKey, "The request has no \(HTTPWire.Header.apiKey) header")
        }
        let token = try ChatServer.bearerToken(headers)
        let backend = self.backend
        let settings = try await BackendThread.run {
            try backend.uploadSettings(apiKey: apiKey, accessToken: token)
        }
        guard let mimeType = Self.mimeType(headers) else {
            throw WireError(.unsupportedMediaType, "The upload has no Content-Type: give the attachment's MIME type")
        }
        guard case .any(let body) = input.body else { throw WireError(.badRequest, "The upload needs a body") }
        let data = try await Self.bytes(of: body, mimeType: mimeType, headers: headers, settings: settings)
        guard case .attachment(let stored) = try await perform(.uploadAttachment(mimeType: mimeType, data: data)) else {
            throw WireError(.internalError)
        }
        return .created(.init(body: .json(try Self.answer(stored))))
    }

    /// The agent sends a file (S2): the app's secret, then the same checks
    /// as an upload's, before and while the body is read.
    func agentSendAttachment(_ input: Operations.AgentSendAttachment.Input) async throws -> Operations.AgentSendAttachment.Output {
        let headers = RequestHeaders.current
        let conversationId = try agentConversation(input.path.id)
        let agentName = try ChatServer.agentName(input.query.agentName)
        let apiKey = try requireApp()
        let backend = self.backend
        let settings = try await BackendThread.run { try backend.settings(apiKey: apiKey) }
        guard let mimeType = Self.mimeType(headers) else {
            throw WireError(.unsupportedMediaType, "The upload has no Content-Type: give the attachment's MIME type")
        }
        guard case .any(let body) = input.body else { throw WireError(.badRequest, "The upload needs a body") }
        let data = try await Self.bytes(of: body, mimeType: mimeType, headers: headers, settings: settings)
        let kind = WireContent.AttachmentKind(rawValue: input.query.kind.rawValue) ?? .document
        let fileName = input.query.fileName
        let message = try await BackendThread.run {
            try backend.agentSendAttachment(
                conversationId: conversationId, kind: kind, mimeType: mimeType, fileName: fileName, data: data, agentName: agentName)
        }
        return .ok(.init(body: .json(try Self.answer(message))))
    }

    /// The type of an upload's bytes: its Content-Type without parameters.
    static func mimeType(_ headers: HTTPFields) -> String? {
        guard let value = headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces), !value.isEmpty
        else { return nil }
        return value
    }

    /// An upload's bytes: its type and declared length are checked before a
    /// byte is read, then at most the app's limit is read.
    static func bytes(of body: HTTPBody, mimeType: String, headers: HTTPFields, settings: AppSettings) async throws -> Data {
        let declared = headers[.contentLength].flatMap { Int64($0) } ?? 1
        try Backend.checkAttachment(mimeType: mimeType, size: max(declared, 1), settings: settings)
        let limit = Int(clamping: settings.maxAttachmentBytes)
        do {
            return try await Data(collecting: body, upTo: limit)
        } catch {
            throw WireError(.attachmentTooLarge, "The attachment is larger than \(limit) bytes, what the server accepts")
        }
    }

    /// The app's limits on attachments, for its signed-in users.
    func limits(_ input: Operations.Limits.Input) async throws -> Operations.Limits.Output {
        guard case .limits(let limits) = try await perform(.appLimits) else { throw WireError(.internalError) }
        return .ok(.init(body: .json(try Self.answer(limits))))
    }

    /// The bytes, for whoever may read them; everyone else is told what an
    /// unknown id is told.
    func attachmentData(_ input: Operations.AttachmentData.Input) async throws -> Operations.AttachmentData.Output {
        let id = try Self.id(input.path.id)
        guard case .attachmentData(let mimeType, let data) = try await perform(.attachmentData(id: id)) else {
            throw WireError(.internalError)
        }
        let digest = Backend.sha256(data)
        return .ok(.init(headers: .init(xAttachmentType: mimeType, xAttachmentSha256: digest), body: .any(HTTPBody(data))))
    }
}
