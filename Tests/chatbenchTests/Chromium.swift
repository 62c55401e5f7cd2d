import ChatTestSupport
import Foundation

/// Headless Chromium (Debian's `chromium`, installed by scripts/setup.sh),
/// run as a subprocess on a local file: the DOM after the page's script
/// ran, or a screenshot.
enum Chromium {
    struct Missing: Error, CustomStringConvertible {
        var description: String { "chromium was not found on PATH (or CHROMIUM): run scripts/setup.sh --tests" }
    }

    static func executable() throws -> String {
        if let explicit = ProcessInfo.processInfo.environment["CHROMIUM"] { return explicit }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            for name in ["chromium", "chromium-browser"] {
                let candidate = "\(folder)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        throw Missing()
    }

    /// The flags a container needs, and a profile of its own.
    static func arguments(profile: URL) -> [String] {
        [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--disable-extensions",
            "--user-data-dir=\(profile.path)",
        ]
    }

    /// The page's DOM after its script ran (`--dump-dom`).
    static func dumpDOM(_ file: URL) throws -> String {
        try run(["--dump-dom", file.absoluteString])
    }

    /// Takes a `width`×`height` screenshot of the page into `png`.
    static func screenshot(_ file: URL, to png: URL, width: Int = 1200, height: Int = 800) throws {
        _ = try run(["--screenshot=\(png.path)", "--window-size=\(width),\(height)", "--hide-scrollbars", file.absoluteString])
    }

    private static func run(_ extra: [String]) throws -> String {
        let scratch = try TemporaryFolder()
        // Never hang a test run on a browser that does not quit.
        return try Process.output(
            of: URL(fileURLWithPath: try executable()),
            arguments(profile: scratch.url.appendingPathComponent("profile")) + extra,
            in: scratch.url, timeout: .seconds(90))
    }
}
