import ChatCore
import Foundation
import Hummingbird

/// JSON bodies: the error answers the server writes itself, the limit of
/// a request body, and what a body that does not decode is told (the
/// generated operations read and write every other body).
enum JSONBody {
    /// Largest request body the server reads.
    static let maxRequestBytes = 1 << 20

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    /// A JSON response (the error answers).
    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let data = (try? encoder.encode(value)) ?? Data(#"{"code":"internalError","message":"The answer could not be encoded"}"#.utf8)
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.isEmpty ? "the body" : keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "The body is not valid JSON" : "Invalid value at \(path(context.codingPath))"
        case .keyNotFound(let key, let context):
            return "Missing field \(path(context.codingPath + [key]))"
        case .typeMismatch(let type, let context):
            return "Wrong type at \(path(context.codingPath)): expected \(type)"
        case .valueNotFound(let type, let context):
            return "Missing value at \(path(context.codingPath)): expected \(type)"
        @unknown default:
            return "The body is malformed"
        }
    }
}
