// swift-tools-version: 6.1
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

// What only the workbench, the server and their tests use: on by default,
// so `swift build` and `swift test` here build everything; an app that
// depends on the SDK turns it off (`traits: []` on its `.package` line), and
// SwiftPM then neither resolves nor fetches these packages for it.
let workbench: TargetDependencyCondition? = .when(traits: ["Workbench"])

let package = Package(
    name: "chatbench",
    // ChatSDK and ChatSDKNetwork are what an app embeds, on iOS and macOS;
    // the workbench and the server run on macOS and Linux. The SDK no longer
    // uses Synchronization's Mutex (ChatCore's LockedValue instead); what
    // sets the floor now is task-executor preference (SE-0417:
    // `Task(executorPreference:)`, `TaskExecutor`), by which a client's
    // work runs on its runtime's serial executor: iOS 18, macOS 15.
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "ChatSDK", targets: ["ChatSDK"]),
        // For Benchmarks/ (a separate package): the workbench and the world it drives.
        .library(name: "Workbench", targets: ["Workbench", "ChatSimulation"]),
        .library(name: "ChatSDKNetwork", targets: ["ChatSDKNetwork"]),
        // For an app's tests: the in-memory chat service under the test's control.
        .library(name: "ChatSDKTestKit", targets: ["ChatSDKTestKit"]),
        .executable(name: "chatbench", targets: ["chatbench"]),
    ],
    traits: [
        .trait(
            name: "Workbench",
            description: "The workbench, the REPL and `chatbench serve`, and what they need. An app that embeds the SDK turns it off."),
        .default(enabledTraits: ["Workbench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        // JWT signing (the workbench playing the app's backend) and the JWT
        // header/claims model used by the backend. It brings swift-crypto 4.x.
        .package(url: "https://github.com/vapor/jwt-kit", exact: "5.8.0"),
        // Named only so that ChatBackend can use its HMAC directly (jwt-kit's
        // verification is async; the backend is synchronous). jwt-kit needs
        // 4.x and resolves it; this line adds no new version constraint.
        .package(url: "https://github.com/apple/swift-crypto.git", "4.1.0"..<"5.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", exact: "2.8.1"),
        .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
        // Named only for a test's TCP proxy (ChatServerTests/SilentProxy);
        // Hummingbird resolves it already.
        .package(url: "https://github.com/apple/swift-nio.git", "2.81.0"..<"3.0.0"),
        // The HTTP API generated from docs/openapi.json, in ChatSDKNetwork
        // (the client) and ChatServer (the server's protocol), committed
        // (scripts/openapi-generate.sh builds the generator on its own): the
        // generator's runtime, and its transports for the server
        // (Hummingbird) and the SDK's client (URLSession).
        .package(url: "https://github.com/apple/swift-openapi-runtime", exact: "1.13.4"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird", exact: "2.1.0"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", exact: "1.4.0"),
        // The SDK's event stream: a WebSocket client on SwiftNIO (Linux's
        // URLSessionWebSocketTask needs a libcurl built with WebSockets).
        .package(url: "https://github.com/hummingbird-project/swift-websocket", exact: "1.6.2"),
    ],
    targets: [
        // Wire format and runtime abstractions shared by the SDK and the backend,
        // so that ChatSDK never imports ChatBackend (and vice versa).
        .target(name: "ChatCore", swiftSettings: strict),
        // SQLite's own bind/step calls on GRDB's cached statements (issue 31):
        // what the backend, the SDK's cache and the recorder write per send.
        .target(
            name: "ChatSQLite",
            dependencies: [.product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift")],
            swiftSettings: strict),
        .target(
            name: "ChatBackend",
            dependencies: [
                "ChatCore", "ChatSQLite",
                .product(name: "GRDB", package: "GRDB.swift"),
                // The C API, for the write-ahead log's hook (WALCheckpointer).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                // Not trait-guarded: ChatSDKTestKit, an app's test dependency, needs the backend.
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
            ], swiftSettings: strict),
        .target(
            name: "ChatSDK",
            dependencies: [
                "ChatCore", "ChatSQLite", .product(name: "GRDB", package: "GRDB.swift"),
            ], swiftSettings: strict),
        // The HTTP API's types, generated once from docs/openapi.json and
        // committed (Generated/; scripts/openapi-generate.sh): the client in
        // ChatSDKNetwork and the server's protocol in ChatServer share them.
        .target(
            name: "ChatAPI", dependencies: [.product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
            exclude: ["openapi-generator-config.yaml"], swiftSettings: strict),
        // The SDK's network transport and real-time runtime: an app that talks
        // to a server imports it; ChatSDK itself stays free of NIO.
        .target(
            name: "ChatSDKNetwork",
            dependencies: [
                "ChatSDK", "ChatCore", "ChatAPI",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // Its HTTP client, generated from docs/openapi.json and committed
            // (Generated/; scripts/openapi-generate.sh): an app builds no generator.
            exclude: ["openapi-generator-config.yaml"], swiftSettings: strict),
        // ChatBackend over HTTP + WebSocket (SPEC S3).
        .target(
            name: "ChatServer",
            dependencies: [
                "ChatBackend", "ChatCore", "ChatAPI", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird", condition: workbench),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird", condition: workbench),
                .product(name: "HummingbirdCore", package: "hummingbird", condition: workbench),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket", condition: workbench),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio", condition: workbench),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: workbench),
                .product(name: "NIOWebSocket", package: "swift-nio", condition: workbench),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: workbench),
            ],
            // Its operations' protocol, generated from docs/openapi.json and
            // committed (Generated/; scripts/openapi-generate.sh).
            exclude: ["openapi-generator-config.yaml"], swiftSettings: strict),
        .target(name: "ChatSimulation", dependencies: ["ChatCore", "ChatSDK", "ChatBackend"], swiftSettings: strict),
        .target(name: "ChatSDKTestKit", dependencies: ["ChatSimulation", "ChatSDK", "ChatBackend", "ChatCore"], swiftSettings: strict),
        .target(
            name: "Workbench",
            dependencies: [
                "ChatSimulation", "ChatSDK", "ChatSDKNetwork", "ChatBackend", "ChatCore", "ChatSQLite",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "JWTKit", package: "jwt-kit", condition: workbench),
            ], swiftSettings: strict),
        .systemLibrary(name: "CLibEdit", pkgConfig: "libedit", providers: [.apt(["libedit-dev"])]),
        .executableTarget(
            name: "chatbench",
            dependencies: [
                "Workbench", "ChatSimulation", "CLibEdit", "ChatServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: workbench),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ], swiftSettings: strict),
        .testTarget(name: "ChatCoreTests", dependencies: ["ChatCore"], swiftSettings: strict),
        .testTarget(
            name: "ChatBackendTests",
            dependencies: [
                "ChatBackend", "ChatSQLite", "ChatTestSupport", .product(name: "JWTKit", package: "jwt-kit", condition: workbench),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strict),
        // What several test targets share: a locked box, temporary folders, child processes.
        .target(name: "ChatTestSupport", path: "Tests/ChatTestSupport", swiftSettings: strict),
        .testTarget(
            name: "ChatSDKTests",
            dependencies: [
                "ChatSDK", "ChatCore", "ChatSimulation", "ChatBackend", "ChatTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
                // The reference for the SDK's own SHA-256 (SHA256Tests).
                .product(name: "Crypto", package: "swift-crypto", condition: workbench),
            ], swiftSettings: strict),
        // A small app's view model tested through the test kit's public API only (and the kit's own tests).
        .testTarget(name: "SampleAppTests", dependencies: ["ChatSDKTestKit", "ChatSDK"], swiftSettings: strict),
        .testTarget(name: "ChatSimulationTests", dependencies: ["ChatSimulation", "ChatTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "ChatSDKNetworkTests",
            dependencies: [
                "ChatSDKNetwork", "ChatAPI", "ChatSDK", "ChatCore", "ChatTestSupport",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ], swiftSettings: strict),
        .testTarget(
            name: "WorkbenchTests",
            dependencies: [
                "Workbench", "ChatServer", "ChatSDKNetwork", "ChatSimulation", "ChatSDK", "ChatCore", "ChatSQLite", "ChatTestSupport",
            ],
            // Planted failures that ShrinkCorpusTests reads by path; a field
            // recording of schema v4 that the legacy readers' tests read.
            exclude: ["ShrinkCorpus", "Fixtures"],
            swiftSettings: strict),
        .testTarget(
            name: "ChatServerTests",
            dependencies: [
                "ChatServer", "ChatSDKNetwork", "ChatSDK", "ChatBackend", "ChatCore", "ChatTestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: workbench),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket", condition: workbench),
                .product(name: "NIOPosix", package: "swift-nio", condition: workbench),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ], swiftSettings: strict),
        // The JUnit schema is read from its path by xmllint, not bundled.
        .testTarget(
            name: "chatbenchTests", dependencies: ["chatbench", "ChatTestSupport"], exclude: ["Fixtures/junit-10.xsd"],
            swiftSettings: strict),
        // An app that sends a diagnostics file to support (issue 27 §5):
        // ChatSDK and ChatSDKNetwork's public API only; scripts/field-story.sh runs it.
        .executableTarget(
            name: "diagnostics-story", dependencies: ["ChatSDK", "ChatSDKNetwork"], path: "Examples/DiagnosticsStory",
            swiftSettings: strict),
    ]
)
