import ChatCore
import Foundation
import Testing

@testable import ChatServer

/// `docs/openapi.json` documents exactly the routes the server serves.
@Suite struct OpenAPITests {
    static var documentPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/openapi.json").path
    }

    static func documentedRoutes() throws -> Set<String> {
        let data = try Data(contentsOf: URL(fileURLWithPath: documentPath))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: Any])
        var routes: Set<String> = []
        let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
        for (path, item) in paths {
            let operations = try #require(item as? [String: Any])
            for method in operations.keys where methods.contains(method) {
                routes.insert("\(method.uppercased()) \(path)")
            }
        }
        return routes
    }

    @Test func theDocumentAndTheRouterAgree() throws {
        let server = try ChatServer(configuration: .init(port: 0))
        let served = Set(server.makeRouter().routes.map { "\($0.method) \($0.path)" })
        let documented = try Self.documentedRoutes()
        #expect(served.subtracting(documented).sorted() == [], "served but not documented")
        #expect(documented.subtracting(served).sorted() == [], "documented but not served")
        #expect(Set(ChatServer.routes.map { "\($0.method) \($0.path)" }) == served)
    }

    /// The Error schema's code enum is WireError.Code, the one place the
    /// codes are defined, in the same order.
    @Test func theErrorCodesAreWireErrorsCodes() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.documentPath))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let error = try #require(schemas["Error"] as? [String: Any])
        let code = try #require((error["properties"] as? [String: Any])?["code"] as? [String: Any])
        let documented = try #require(code["enum"] as? [String])
        #expect(documented == WireError.Code.allCases.map(\.rawValue))
    }

    /// Codes are an open set (a struct, issue 14), so the status table has a
    /// default: only `internalError` and codes this build does not know may
    /// fall to it.
    @Test func everyKnownCodeHasItsOwnStatus() {
        for code in WireError.Code.allCases where code != .internalError {
            #expect(APIError.status(for: code) != .internalServerError, "\(code)")
        }
        #expect(APIError.status(for: .internalError) == .internalServerError)
        #expect(APIError.status(for: WireError.Code(rawValue: "fromTheFuture")) == .internalServerError)
    }

    @Test func everyOperationDocumentsItsErrorsAsJSON() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.documentPath))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        for (path, operations) in paths {
            for (method, value) in operations {
                let operation = try #require(value as? [String: Any])
                let responses = try #require(operation["responses"] as? [String: Any], "\(method) \(path)")
                // Any operation may fail on the server's side (issue 26).
                #expect(responses["500"] != nil, "\(method) \(path) documents no 500")
                for (status, response) in responses where status.hasPrefix("4") || status.hasPrefix("5") {
                    let content = (response as? [String: Any])?["content"] as? [String: Any]
                    #expect(content?["application/json"] != nil, "\(method) \(path) \(status)")
                }
            }
        }
    }
}
