import ChatCore
import ChatSDK
import ChatSimulation
import ChatTestSupport
import Foundation
import Testing

/// An app in the embedded world with the flight recorder on: its client,
/// on the world's runtime or a device's own (``WallClockRuntime``), each of
/// its calls run to completion, and its diagnostics file exported.
struct FieldApp {
    let world: World
    let client: ChatClient
    let folder: TemporaryFolder

    init(
        world: World, runtime: (any ChatRuntime)? = nil, deviceId: String, appName: String, in folder: TemporaryFolder,
        maxBytes: Int? = nil
    ) {
        self.world = world
        self.folder = folder
        var configuration = ChatClient.Configuration(apiKey: World.apiKey, transport: world.makeTransport(), runtime: runtime ?? world)
        configuration.cacheMode = .memory
        configuration.deviceId = deviceId
        var diagnostics = ChatClient.Diagnostics(file: folder.url.appendingPathComponent("diagnostics.sqlite").path, appName: appName)
        diagnostics.device = "test device"
        if let maxBytes { diagnostics.maxBytes = maxBytes }
        configuration.diagnostics = diagnostics
        client = ChatClient(configuration: configuration, tokenProvider: SimulatedTokenProvider(world: world))
        world.runUntilIdle()
    }

    /// Runs an SDK call to completion, and what it left to do.
    func call<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) throws {
        _ = try #require(world.run(operation)).get()
        world.runUntilIdle()
    }

    /// `exportDiagnostics(to:)` into the folder: the file's path.
    func export() throws -> String {
        let export = folder.url.appendingPathComponent("export.sqlite").path
        try client.exportDiagnostics(to: export)
        return export
    }
}
