/// How the backend stores an id an app chose (a user id, a conversation id)
/// so that ids are per app (issue 26): two apps may each have a user
/// "alice" or a conversation "c1", and they are two users, two
/// conversations, everywhere.
///
/// A row's key is the id itself when no other app held that id first (every
/// row stored before ids were per app, and nearly every row after), and
/// the id, U+001F and the API key otherwise. An id never holds U+001F (a
/// control character: ``Backend/validateIdentifier(_:what:)`` refuses it), so
/// no key of the second form is ever an app's id, and the id an app sees is
/// the key up to its first U+001F. An app's requests are looked up among
/// its two possible keys, and only rows of that app answer: another app's
/// row is never found, so it answers as an unknown id does.
///
/// ```swift
/// AppKey.scoped("alice", apiKey: "other-key")  // "alice\u{1F}other-key"
/// AppKey.visible("alice\u{1F}other-key")       // "alice"
/// ```
package enum AppKey {
    /// The separator between an id and its app's API key in a scoped key.
    package static let separator: Unicode.Scalar = "\u{1F}"

    /// The key of `id` for the app with `apiKey` when another app holds `id`.
    package static func scoped(_ id: String, apiKey: String) -> String {
        id + String(separator) + apiKey
    }

    /// The id an app sees for a stored key.
    package static func visible(_ key: String) -> String {
        guard let index = key.unicodeScalars.firstIndex(of: separator) else { return key }
        return String(key.unicodeScalars[..<index])
    }

    /// `visible` for an optional key.
    package static func visible(_ key: String?) -> String? {
        key.map { visible($0) }
    }
}
