// swift-tools-version: 6.1
import PackageDescription

// Benchmarks of chatbench (package-benchmark). A separate package, so that
// the main package's `swift build` and `swift test` neither fetch nor run it.
//
//     cd Benchmarks && swift package benchmark
//     swift package benchmark --filter "Send.*"
let package = Package(
    name: "ChatBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Named, because a path dependency is otherwise known by its folder name.
        .package(name: "chatbench", path: ".."),
        .package(url: "https://github.com/ordo-one/package-benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "ChatBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "ChatSDK", package: "chatbench"),
                .product(name: "Workbench", package: "chatbench"),
            ],
            path: "Benchmarks/ChatBenchmarks",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
    ]
)
