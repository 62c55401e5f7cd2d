import ChatServer
import Foundation
import Testing

/// Attachments' bytes over HTTP (D6, A14) as any HTTP client sees them.
@Suite struct AttachmentsOverHTTPTests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])

    @Test func theBytesComeBackWithTheirOwnContentType() async throws {
        let server = try await TestServer.start()
        let alice = try await server.app.issueTokens(userId: "alice")
        let headers = HTTPAPITests.bearer(alice.accessToken)
        let upload = try await http(
            "POST", server.baseURL + "/v1/attachments", headers: headers.merging(["Content-Type": "image/png"]) { $1 }, data: Self.png)
        let id = try #require(upload.json?["id"] as? String)
        let read = try await http("GET", server.baseURL + "/v1/attachments/\(id)", headers: headers)
        await server.stop()
        #expect(read.status == 200 && read.body == Self.png)
        #expect(read.headers["content-type"] == "image/png")
        // Kept for clients that read the type there.
        #expect(read.headers["x-attachment-type"] == "image/png")
    }

    @Test func theAppsLimitsAreReadBySignedInUsers() async throws {
        let server = try await TestServer.start()
        let alice = try await server.app.issueTokens(userId: "alice")
        let limits = try await http("GET", server.baseURL + "/v1/limits", headers: HTTPAPITests.bearer(alice.accessToken))
        let anonymous = try await http("GET", server.baseURL + "/v1/limits", headers: HTTPAPITests.key)
        await server.stop()
        #expect(limits.status == 200)
        #expect(limits.json?["maxAttachmentBytes"] as? Int == 25 * 1024 * 1024)
        #expect((limits.json?["allowedMimeTypes"] as? [String])?.contains("image/png") == true)
        #expect(anonymous.status == 401)
    }
}
