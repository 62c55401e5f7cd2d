// swift-tools-version: 6.1
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "chatbench",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ChatSDK", targets: ["ChatSDK"]),
        // For Benchmarks/ (a separate package): the workbench and the world it drives.
        .library(name: "Workbench", targets: ["Workbench", "ChatSimulation"]),
        .executable(name: "chatbench", targets: ["chatbench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    ],
    targets: [
        // Wire format and runtime abstractions shared by the SDK and the backend,
        // so that ChatSDK never imports ChatBackend (and vice versa).
        .target(name: "ChatCore", swiftSettings: strict),
        .target(name: "ChatBackend", dependencies: ["ChatCore", .product(name: "GRDB", package: "GRDB.swift")], swiftSettings: strict),
        .target(name: "ChatSDK", dependencies: ["ChatCore", .product(name: "GRDB", package: "GRDB.swift")], swiftSettings: strict),
        .target(name: "ChatSimulation", dependencies: ["ChatCore", "ChatSDK", "ChatBackend"], swiftSettings: strict),
        .target(name: "Workbench", dependencies: ["ChatSimulation", "ChatSDK", "ChatBackend", "ChatCore", .product(name: "GRDB", package: "GRDB.swift")], swiftSettings: strict),
        .systemLibrary(name: "CLibEdit", pkgConfig: "libedit", providers: [.apt(["libedit-dev"])]),
        .executableTarget(name: "chatbench", dependencies: [
            "Workbench", "CLibEdit",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "GRDB", package: "GRDB.swift"),
        ], swiftSettings: strict),
        .testTarget(name: "ChatCoreTests", dependencies: ["ChatCore"], swiftSettings: strict),
        .testTarget(name: "ChatBackendTests", dependencies: ["ChatBackend"], swiftSettings: strict),
        .testTarget(name: "ChatSDKTests", dependencies: ["ChatSDK", "ChatSimulation"], swiftSettings: strict),
        .testTarget(name: "ChatSimulationTests", dependencies: ["ChatSimulation"], swiftSettings: strict),
        .testTarget(name: "WorkbenchTests", dependencies: ["Workbench"], swiftSettings: strict),
        .testTarget(name: "chatbenchTests", dependencies: ["chatbench"], swiftSettings: strict),
    ]
)
