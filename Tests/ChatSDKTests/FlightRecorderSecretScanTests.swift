import ChatBackend
import ChatCore
import ChatSimulation
import ChatTestSupport
import Foundation
import GRDB
import Testing

@testable import ChatSDK

/// Nothing secret is ever written by the flight recorder (issue 27): a
/// recording made with every kind of secret in use (the API key, provider
/// tokens, a JWT, app-issued access and session tokens, ChatAuth's token,
/// header values and signature, a push token) holds none of them, in its
/// rows, its raw bytes or its write-ahead log.
@Suite struct FlightRecorderSecretScanTests {
    /// Keeps every request and answer in clear, below the recorder.
    final class Capture: ChatTransport {
        let inner: any ChatTransport
        let seen = Locked<[Data]>([])
        init(_ inner: any ChatTransport) { self.inner = inner }

        func perform(_ envelope: WireEnvelope) async throws -> WireResponse {
            keep(envelope)
            let response = try await inner.perform(envelope)
            keep(response)
            return response
        }
        func openRealtime(_ request: RealtimeRequest) async throws -> RealtimeConnection {
            seen.withLock { $0.append(Data((request.accessToken + " " + request.headers.values.joined(separator: " ")).utf8)) }
            return try await inner.openRealtime(request)
        }
        func reachability() -> AsyncStream<Bool> { inner.reachability() }
        private func keep(_ value: some Encodable) {
            if let data = try? JSONEncoder().encode(value) { seen.withLock { $0.append(data) } }
        }
    }

    static let tokenPattern = try! NSRegularExpression(pattern: "\\b(?:at|rt|st|ak)[-_][A-Za-z0-9]{8,}\\b")
    static let jwtPattern = try! NSRegularExpression(pattern: "eyJ[A-Za-z0-9_-]*\\.eyJ[A-Za-z0-9_-]*\\.[A-Za-z0-9_-]*")

    /// Every token and JWT that crossed the wire in clear.
    static func secrets(in capture: Capture) -> Set<String> {
        var found: Set<String> = []
        for data in capture.seen.withLock({ $0 }) {
            let text = String(decoding: data, as: UTF8.self)
            for pattern in [tokenPattern, jwtPattern] {
                for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    found.insert(String(text[Range(match.range, in: text)!]))
                }
            }
        }
        return found
    }

    /// The file's rows as text (sqlite3's view of it), and the raw bytes of
    /// the file, its write-ahead log and its shared memory.
    static func everythingIn(_ path: String) throws -> [String: Data] {
        var views: [String: Data] = [:]
        for suffix in ["", "-wal", "-shm"] {
            views["bytes\(suffix)"] = FileManager.default.contents(atPath: path + suffix) ?? Data()
        }
        let queue = try DatabaseQueue(path: path)
        let text = try queue.read { db in
            try ["session", "step", "event", "traffic"].flatMap { table in
                try Row.fetchAll(db, sql: "SELECT * FROM \(table)").map { row in
                    row.databaseValues.map { value -> String in
                        switch value.storage {
                        case .string(let string): string
                        case .blob(let data): String(decoding: data, as: UTF8.self)
                        default: value.description
                        }
                    }.joined(separator: "|")
                }
            }.joined(separator: "\n")
        }
        views["rows"] = Data(text.utf8)
        return views
    }

    static func occurrences(of secrets: Set<String>, in views: [String: Data]) -> [String] {
        var hits: [String] = []
        for (name, data) in views.sorted(by: { $0.key < $1.key }) {
            for secret in secrets.sorted() where data.range(of: Data(secret.utf8)) != nil {
                hits.append("\(secret) in \(name)")
            }
        }
        return hits
    }

    @Test func noSecretOfAnyKindIsInTheFile() throws {
        let folder = try TemporaryFolder()
        let settings = FlightRecorderTests.settings(in: folder)
        let captured = Locked<Capture?>(nil)
        let f = try Fixture(diagnostics: settings) { _, inner in
            let capture = Capture(inner)
            captured.withLock { $0 = capture }
            return capture
        }
        let capture = try #require(captured.withLock { $0 })
        let world = f.world
        var known: Set<String> = [World.apiKey]

        // Provider tokens (access and refresh), refreshed once.
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        let conversation = try f.call { try await f.client.startConversation(id: "c-1") }
        try f.call { try await f.client.sendMessage(.text("hello"), in: conversation.id) }
        world.advance(by: .seconds(3600))
        try f.call { try await f.client.sendMessage(.text("again"), in: conversation.id) }
        let push = "apns-0f1e2d3c4b5a69788796a5b4c3d2e1f0"
        known.insert(push)
        try f.call { try await f.client.registerPushToken(push) }
        try f.call { await f.client.clearCurrentUser() }

        // A JWT from the app's backend.
        let exp = world.now + .seconds(3600)
        let jwt = AppJWT.sign(
            AppJWT.Claims(externalId: "bob", exp: Date(timeIntervalSince1970: Double(exp.milliseconds) / 1000)), secret: World.jwtSecret)
        known.insert(jwt)
        try f.call { try await f.client.loginUser(jwt: jwt) }
        try f.call { await f.client.clearCurrentUser() }

        // App-issued access and session tokens.
        let access = try world.backend.issueAccessToken(apiKey: World.apiKey, userId: "carol").token
        known.insert(access)
        try f.call { try await f.client.connect(userId: "carol", accessToken: access) }
        try f.call { await f.client.clearCurrentUser() }
        let session = try world.backend.issueSessionToken(apiKey: World.apiKey, userId: "dave", ttl: .seconds(600)).token
        known.insert(session)
        try f.call { try await f.client.connect(userId: "dave", sessionToken: session) }
        try f.call { await f.client.clearCurrentUser() }

        // ChatAuth: a token, header values, a user signature.
        let chatAuthToken = try world.backend.issueAccessToken(apiKey: World.apiKey, userId: "erin").token
        let signature = try world.backend.userSignature(apiKey: World.apiKey, userId: "erin")
        let headers = ["X-Tenant": "tenant-secret-4f3e2d", "X-Gateway-Key": "Bearer opaque-9a8b7c6d5e"]
        known.formUnion([chatAuthToken, signature] + headers.values)
        try f.call {
            await f.client.authorize(
                user: ChatUser(id: "erin"), auth: ChatAuth(token: chatAuthToken, headers: headers, signature: signature))
        }
        #expect(try f.call { await f.client.sessionState } == .authenticated(userId: "erin", via: .authorized))
        let erins = try f.call { try await f.client.startConversation(id: "c-2") }
        try f.call { try await f.client.sendMessage(.text("from erin"), in: erins.id) }
        world.runUntilIdle()

        let corpus = known.union(Self.secrets(in: capture))
        // The corpus holds what it should: provider tokens, refreshed ones, a JWT.
        #expect(corpus.filter { $0.hasPrefix("at-") || $0.hasPrefix("at_") }.count >= 3)
        #expect(corpus.contains { $0.hasPrefix("rt-") || $0.hasPrefix("rt_") })
        #expect(corpus.contains(jwt))

        let views = try Self.everythingIn(settings.file)
        #expect(Self.occurrences(of: corpus, in: views) == [])
        // Placeholders stand where the secrets were.
        let rows = String(decoding: views["rows"] ?? Data(), as: UTF8.self)
        #expect(rows.contains("loginUser(jwt: \"<secret#"))
        #expect(rows.contains("\"X-Tenant\": \"<secret#"))
        #expect(rows.contains("\"apiKey\":\"<secret#1>\""))
    }

    @Test func withContentRedactedNoMessageTextIsInTheFile() throws {
        let folder = try TemporaryFolder()
        let settings = FlightRecorderTests.settings(in: folder, content: .redacted)
        let f = try Fixture(diagnostics: settings)
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        let conversation = try f.call { try await f.client.startConversation(id: "c-1", title: "Checkup") }
        let watcher = Collected(f.client.watchItems(ofConversationWithId: conversation.id), in: f.world)
        try f.call { try await f.client.sendMessage(.text("patient reports chest pain"), in: conversation.id) }
        try f.world.agentSay("rest and fluids, see you Monday", in: f.client.serverId(ofConversation: conversation.id))
        f.world.runUntilIdle()
        try f.call { await f.client.prefill(message: "my blood pressure is") }
        #expect(watcher.last?.data.elements.count == 2)

        let views = try Self.everythingIn(settings.file)
        let texts: Set<String> = ["chest pain", "rest and fluids", "blood pressure"]
        #expect(Self.occurrences(of: texts, in: views) == [])
        let rows = String(decoding: views["rows"] ?? Data(), as: UTF8.self)
        #expect(rows.contains(ContentRedaction.summary(of: "patient reports chest pain")))
        #expect(rows.contains(ContentRedaction.summary(of: "rest and fluids, see you Monday")))
    }
}
