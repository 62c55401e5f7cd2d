import Foundation

extension ChatClient {
    /// The flight recorder's settings: where it keeps what happened on this
    /// device, for how long, and whether message text is kept. Off unless
    /// the configuration's `diagnostics` is set.
    ///
    /// ```swift
    /// var configuration = ChatClient.Configuration(apiKey: key, transport: .http(baseURL: url), runtime: .realTime())
    /// configuration.diagnostics = .init(file: folder + "/chat-diagnostics.sqlite", appName: "Acme Support 3.2")
    /// ```
    public struct Diagnostics: Sendable, Hashable {
        /// What the recorder keeps of a message's text.
        public enum Content: String, Sendable, Hashable, CaseIterable {
            /// The text as it is.
            case kept
            /// Its kind, its length and a digest (`<text 12 chars sha256:1f2e3d4c5b6a7980>`):
            /// enough to tell two messages apart, not to read them.
            case redacted
        }

        /// The recording's SQLite file, created when first needed (its folder too).
        public var file: String
        /// The app's name and version, shown in the recording's header.
        public var appName: String
        /// The device, shown in the header. Default: the operating system and machine.
        public var device: String = Diagnostics.defaultDevice
        /// The largest the file may grow, in bytes; the oldest records go
        /// first. Default 5 MB.
        public var maxBytes: Int = 5_000_000
        /// How long a record is kept. Default 24 h.
        public var maxAge: Duration = .seconds(24 * 3600)
        /// Default `.kept`.
        public var content: Content = .kept

        /// Settings with the defaults above.
        public init(file: String, appName: String) {
            self.file = file
            self.appName = appName
        }

        /// `Linux 6.1.0 x86_64`, `Darwin 24.1.0 arm64`.
        public static var defaultDevice: String {
            var name = utsname()
            uname(&name)
            func text(_ field: Any) -> String {
                withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            }
            return "\(text(name.sysname)) \(text(name.release)) \(text(name.machine))"
        }
    }

    /// Writes what the flight recorder holds into one self-contained SQLite
    /// file at `path` (a consistent copy, with no write-ahead log beside it):
    /// the file an app attaches to a support ticket. Secrets were never
    /// written; message text is in it unless `content` is `.redacted`.
    /// Throws `invalidArgument` when the recorder is off or `path` exists.
    public func exportDiagnostics(to path: String) throws {
        guard let recorder else {
            throw ChatError(.invalidArgument, "The flight recorder is off: set the configuration's diagnostics")
        }
        try recorder.export(to: path)
    }
}
