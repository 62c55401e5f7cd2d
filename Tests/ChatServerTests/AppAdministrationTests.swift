import ChatBackend
import ChatSDK
import ChatSDKNetwork
import ChatServer
import ChatTestSupport
import Foundation
import Testing

/// A server's operator adds apps with secrets of their own (`chatbench apps`,
/// issue 26): without it a server had the demo app only, whose secret is
/// published.
@Suite struct AppAdministrationTests {
    @Test func anAppAddedWhileTheServerRunsIsAnsweredAtOnceWithItsOwnSecret() async throws {
        let server = try await TestServer.start()
        let apps = try AppAdministration(databasePath: server.databasePath)
        let secret = AppAdministration.newSecret()
        try apps.add(apiKey: "clinic-app", secret: secret, allowUserIdOnly: false)
        let clinic = AppBackendClient(baseURL: server.baseURL, apiKey: "clinic-app", secret: secret)
        let pair = try await clinic.issueTokenPair(userId: "alice")
        let withDemoSecret = AppBackendClient(baseURL: server.baseURL, apiKey: "clinic-app", secret: ChatServer.demoSecret)
        await #expect(throws: (any Error).self) { try await withDemoSecret.issueTokenPair(userId: "bob") }
        let listed = try apps.apps()
        await server.stop()
        #expect(pair.accessToken.hasPrefix("at-"))
        #expect(listed.map(\.apiKey) == ["clinic-app", ChatServer.demoApiKey])
        #expect(listed.first?.users == 1 && listed.first?.settings.allowUserIdOnly == false)
        #expect(listed.last?.settings.allowUserIdOnly == true, "the demo app keeps its setting")
    }

    @Test func anAppCannotSignInByUserIdAloneUnlessAsked() async throws {
        let server = try await TestServer.start()
        let apps = try AppAdministration(databasePath: server.databasePath)
        try apps.add(apiKey: "strict-app", secret: AppAdministration.newSecret(), allowUserIdOnly: false)
        try apps.add(apiKey: "open-app", secret: AppAdministration.newSecret(), allowUserIdOnly: true)
        let settings = try Dictionary(uniqueKeysWithValues: apps.apps().map { ($0.apiKey, $0.settings.allowUserIdOnly) })
        await server.stop()
        #expect(settings == ["strict-app": false, "open-app": true, ChatServer.demoApiKey: true])
    }

    @Test func badKeysSecretsAndDuplicatesAreRefusedWithTheirReason() throws {
        let folder = try TemporaryFolder()
        let apps = try AppAdministration(databasePath: folder.url.appendingPathComponent("s.sqlite").path)
        let secret = AppAdministration.newSecret()
        try apps.add(apiKey: "k", secret: secret, allowUserIdOnly: false)
        let refusals: [(String, String, String)] = [
            ("k", secret, "already exists"),
            ("", secret, "empty"),
            ("two words", secret, "printable ASCII without spaces"),
            ("caf\u{E9}", secret, "printable ASCII without spaces"),
            (String(repeating: "k", count: 129), secret, "at most 128"),
            ("k2", String(repeating: "s", count: 31), "at least 32"),
            ("k2", String(repeating: "s", count: 31) + " ", "printable ASCII without spaces"),
        ]
        for (key, secret, reason) in refusals {
            #expect(throws: AppAdministration.Refusal.self, "\(key) / \(secret)") {
                try apps.add(apiKey: key, secret: secret, allowUserIdOnly: false)
            }
            do {
                try apps.add(apiKey: key, secret: secret, allowUserIdOnly: false)
            } catch {
                #expect(error.description.contains(reason), "\(error)")
            }
        }
        #expect(try apps.apps().map(\.apiKey) == ["k"])
    }

    @Test func newSecretsAre32RandomBytesInHex() {
        let secrets = (0..<4).map { _ in AppAdministration.newSecret() }
        #expect(Set(secrets).count == 4)
        for secret in secrets {
            #expect(secret.count == 64 && secret.allSatisfy(\.isHexDigit), "\(secret)")
        }
    }

    @Test func anotherProgramsFileIsRefusedUntouched() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("notes.txt").path
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: AppAdministration.Refusal.self) { try AppAdministration(databasePath: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("not a database".utf8))
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }
}
