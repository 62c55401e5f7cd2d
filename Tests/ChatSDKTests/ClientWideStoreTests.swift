import ChatBackend
import ChatCore
import ChatSDK
import ChatSimulation
import Foundation
import Testing

/// The client-wide store (queued logouts, A9) is opened when first needed:
/// a client starts and signs in without touching it, and its file exists
/// once a logout is queued (every logout is, before it is sent).
@Suite struct ClientWideStoreTests {
    func clientWideFiles(_ app: DataLayerTests.DiskApp) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: app.folder)) ?? []).filter { $0.contains("_client") }
    }

    func jwt(_ user: String, world: World) -> String {
        let exp = world.now + .seconds(3600)
        return AppJWT.sign(
            AppJWT.Claims(externalId: user, exp: Date(timeIntervalSince1970: Double(exp.milliseconds) / 1000)), secret: World.jwtSecret)
    }

    @Test func aLogoutThatWaitsIsKeptOnDiskAndCarriedOutAfterARestart() throws {
        let app = try DataLayerTests.DiskApp()
        #expect(clientWideFiles(app).isEmpty, "a client starts without the file")
        let first = jwt("alice", world: app.world)
        try app.call { _ = try await $0.loginUser(jwt: first) }
        #expect(clientWideFiles(app).isEmpty, "signing in reads the queue without making the file")
        try app.call { try await $0.logout() }
        #expect(app.world.backend.sessions(userId: "alice").isEmpty)

        let second = jwt("alice", world: app.world)
        try app.call { _ = try await $0.loginUser(jwt: second) }
        app.world.network.setOnline(false)
        try app.call { try await $0.logout() }
        #expect(app.world.backend.sessions(userId: "alice").count == 1, "offline: the server session stays")
        #expect(!clientWideFiles(app).isEmpty, "the waiting logout is on disk")

        try app.restart(signIn: "bob")
        app.world.network.setOnline(true)
        app.world.runUntilIdle()
        #expect(app.world.backend.sessions(userId: "alice").isEmpty, "the restarted client carried it out")
    }
}
