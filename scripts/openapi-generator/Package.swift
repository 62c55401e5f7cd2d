// swift-tools-version: 6.1
// The OpenAPI generator, for scripts/openapi-generate.sh alone: the code it
// makes from docs/openapi.json is committed (Sources/*/Generated), so that
// neither an app that embeds the SDK nor chatbench's own build builds it.
import PackageDescription

let package = Package(
    name: "openapi-generator",
    dependencies: [.package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3")],
    targets: []
)
