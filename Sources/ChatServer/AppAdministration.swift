import ChatBackend
import ChatCore

/// What an operator does to a server's apps (`chatbench apps`, issue 26):
/// list them and add one with a secret of its own, on the server's database
/// file, whether or not a server is running on it (an app is read from the
/// file at every request, so a running server answers the new app's requests
/// at once).
///
/// ```swift
/// let apps = try AppAdministration(databasePath: "chatbench-server.sqlite")
/// let secret = AppAdministration.newSecret()
/// try apps.add(apiKey: "clinic-app", secret: secret, allowUserIdOnly: false)
/// ```
package struct AppAdministration {
    /// Why an app cannot be added, or the file cannot be opened: one line.
    package struct Refusal: Error, CustomStringConvertible, Equatable {
        package let description: String
    }

    /// The fewest bytes of a secret: it is the HS256 key of the app's users'
    /// JWTs, and RFC 7518 (3.2) asks for a key at least as long as the hash.
    package static let minimumSecretBytes = 32

    let backend: Backend

    /// Opens the server database at `databasePath`, made if missing. The
    /// file is checked first, as `serve` checks it: another program's SQLite
    /// file or a damaged one is refused before anything is written to it.
    package init(databasePath: String) throws(Refusal) {
        do {
            try DatabaseFileCheck.check(databasePath)
        } catch {
            throw Refusal(description: error.description)
        }
        do {
            backend = try Backend(environment: ServerEnvironment.make(seed: nil), path: databasePath, commitSync: .full)
        } catch {
            throw Refusal(description: "cannot open the database \(databasePath): \(error)")
        }
    }

    /// Every app, in key order.
    package func apps() throws(Refusal) -> [AppSummary] {
        do { return try backend.apps() } catch { throw Refusal(description: error.message) }
    }

    /// Adds an app with its own secret and the default settings, but for
    /// sign-in by user id alone, which is `allowUserIdOnly` (the demo app
    /// allows it; an operator's app does not unless asked).
    package func add(apiKey: String, secret: String, allowUserIdOnly: Bool) throws(Refusal) {
        try Self.check(apiKey: apiKey)
        try Self.check(secret: secret)
        if try apps().contains(where: { $0.apiKey == apiKey }) {
            throw Refusal(description: "an app with the API key \(apiKey) already exists")
        }
        var settings = AppSettings()
        settings.allowUserIdOnly = allowUserIdOnly
        do {
            try backend.createApp(apiKey: apiKey, jwtSecret: secret, settings: settings)
        } catch {
            throw Refusal(description: (error as? WireError)?.message ?? "\(error)")
        }
    }

    /// A new secret: 32 bytes from the system's random generator, as 64
    /// hexadecimal digits.
    package static func newSecret() -> String {
        RandomSource.system(idDigits: minimumSecretBytes * 2).makeID(prefix: "")
    }

    /// An API key is sent in a header and a query parameter: printable
    /// ASCII without spaces, at most 128 characters.
    static func check(apiKey: String) throws(Refusal) {
        guard !apiKey.isEmpty else { throw Refusal(description: "the API key is empty") }
        guard apiKey.utf8.count <= 128 else {
            throw Refusal(description: "the API key is \(apiKey.utf8.count) bytes; at most 128")
        }
        guard apiKey.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            throw Refusal(description: "the API key must be printable ASCII without spaces (it goes in a header)")
        }
    }

    static func check(secret: String) throws(Refusal) {
        guard secret.utf8.count >= minimumSecretBytes else {
            throw Refusal(
                description:
                    "the secret is \(secret.utf8.count) bytes; at least \(minimumSecretBytes) (it is the HS256 key of the app's JWTs)")
        }
        guard secret.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            throw Refusal(description: "the secret must be printable ASCII without spaces (it goes in a header)")
        }
    }
}
