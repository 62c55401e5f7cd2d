import ChatCore
import Foundation
import Hummingbird

/// Reading and writing JSON bodies, with errors that name what is wrong.
enum JSONBody {
    /// Largest request body the server reads.
    static let maxRequestBytes = 1 << 20

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    /// A JSON response.
    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let data = (try? encoder.encode(value)) ?? Data(#"{"code":"internalError","message":"The answer could not be encoded"}"#.utf8)
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// 204, no body.
    static func noContent() -> Response {
        Response(status: .noContent)
    }

    /// Decodes the body of `request` as `T`; malformed JSON, wrong types and
    /// missing fields are `badRequest` naming the problem, an oversized body `413`.
    ///
    /// `oneKey` names the places (key paths into the body, `[]` for the body
    /// itself) that hold an enum, which must be an object of exactly one key,
    /// its case: Swift's decoding ignores other keys, docs/openapi.json
    /// refuses them, and so does the server.
    static func decode<T: Decodable>(
        _ type: T.Type, from request: Request, optional: Bool = false,
        oneKey: [[String]] = []
    ) async throws -> T? {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maxRequestBytes)
        } catch {
            throw WireError(.requestTooLarge, "The request body is larger than \(maxRequestBytes) bytes")
        }
        if buffer.readableBytes == 0 {
            if optional { return nil }
            throw WireError(.badRequest, "The request needs a JSON body")
        }
        let data = Data(buffer.readableBytesView)
        if !oneKey.isEmpty, let body = try? JSONSerialization.jsonObject(with: data) {
            for path in oneKey {
                let value = path.reduce(Optional(body)) { value, key in (value as? [String: Any])?[key] }
                if let object = value as? [String: Any], object.count != 1 {
                    let place = path.isEmpty ? "The body" : path.joined(separator: ".")
                    throw WireError(.badRequest, "\(place) must have exactly one key, its case; it has \(object.count)")
                }
            }
        }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw WireError(.badRequest, describe(error))
        } catch {
            throw WireError(.badRequest, "The body is not valid JSON")
        }
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
