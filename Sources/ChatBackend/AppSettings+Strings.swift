import ChatCore
import Foundation

/// Settings as `KEY=VALUE` strings, for the workbench's `server settings`.
extension AppSettings {
    /// The keys that ``set(_:to:)`` accepts, in the order ``described`` lists them.
    package static let keys = [
        "allowUserIdOnly", "requireAccessToken", "accessTokenTTL", "refreshTokenTTL", "sessionTokenTTL",
        "typingTTL", "maxAttachmentBytes", "allowedMimeTypes",
    ]

    /// Every setting as (key, value) pairs, values in the form ``set(_:to:)`` reads.
    package var described: [(String, String)] {
        [
            ("allowUserIdOnly", String(allowUserIdOnly)),
            ("requireAccessToken", String(requireAccessToken)),
            ("accessTokenTTL", Self.format(accessTokenTTL)),
            ("refreshTokenTTL", Self.format(refreshTokenTTL)),
            ("sessionTokenTTL", Self.format(sessionTokenTTL)),
            ("typingTTL", Self.format(typingTTL)),
            ("maxAttachmentBytes", String(maxAttachmentBytes)),
            ("allowedMimeTypes", allowedMimeTypes.joined(separator: ",")),
        ]
    }

    /// Sets one setting from its string form: booleans `true`/`false`,
    /// durations `500ms`, `30s`, `10m`, `2h`, `7d`, sizes in bytes, MIME
    /// types separated by commas. Throws `badRequest` naming the valid keys
    /// for an unknown key, or the expected form for a bad value.
    package mutating func set(_ key: String, to value: String) throws(WireError) {
        func bad(_ expected: String) -> WireError {
            WireError(.badRequest, "Bad value \(String(value.prefix(100)).debugDescription) for setting \(key): expected \(expected)")
        }
        func bool() throws(WireError) -> Bool {
            switch value.lowercased() {
            case "true", "yes", "on", "1": return true
            case "false", "no", "off", "0": return false
            default: throw bad("true or false")
            }
        }
        func duration() throws(WireError) -> Duration {
            guard let duration = Self.parseDuration(value) else { throw bad("a duration such as 500ms, 30s, 10m, 2h or 7d") }
            return duration
        }
        switch key {
        case "allowUserIdOnly": allowUserIdOnly = try bool()
        case "requireAccessToken": requireAccessToken = try bool()
        case "accessTokenTTL": accessTokenTTL = try duration()
        case "refreshTokenTTL": refreshTokenTTL = try duration()
        case "sessionTokenTTL": sessionTokenTTL = try duration()
        case "typingTTL": typingTTL = try duration()
        case "maxAttachmentBytes":
            // Digits only, at most 18 (docs/openapi.json's pattern says the same).
            guard value.count <= 18, value.allSatisfy({ $0.isASCII && $0.isNumber }), let bytes = Int64(value) else {
                throw bad("a number of bytes (0 or more)")
            }
            maxAttachmentBytes = bytes
        case "allowedMimeTypes":
            // Types of printable ASCII separated by commas, spaces around them allowed.
            let types = value.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .init(charactersIn: " "))
            }
            guard
                types.allSatisfy({ type in
                    let parts = type.split(separator: "/", omittingEmptySubsequences: false)
                    return parts.count == 2
                        && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { (0x21...0x7E).contains($0.asciiValue ?? 0) } }
                })
            else { throw bad("MIME types such as image/png,image/jpeg separated by commas") }
            allowedMimeTypes = types
        default:
            throw WireError(
                .badRequest,
                "Unknown setting \(String(key.prefix(100)).debugDescription); the settings are \(Self.keys.joined(separator: ", "))")
        }
    }

    /// `500ms`, `30s`, `10m`, `2h`, `7d` → a duration; nil for anything else.
    static func parseDuration(_ text: String) -> Duration? {
        let units: [(String, Int64)] = [("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000)]
        for (suffix, ms) in units where text.hasSuffix(suffix) {
            let number = text.dropLast(suffix.count)
            // "ms" is tried before "s" and "m": "5ms" never reads as 5m + "s".
            // 1 to 9 digits (docs/openapi.json's pattern says the same).
            guard (1...9).contains(number.count), number.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int64(number) else {
                return nil
            }
            let (product, overflow) = n.multipliedReportingOverflow(by: ms)
            return overflow ? nil : .milliseconds(product)
        }
        return nil
    }

    /// The shortest exact form among h, m, s and ms.
    static func format(_ duration: Duration) -> String {
        let ms = duration.wholeMilliseconds
        for (suffix, unit) in [("h", Int64(3_600_000)), ("m", 60_000), ("s", 1000)] where ms != 0 && ms % unit == 0 {
            return "\(ms / unit)\(suffix)"
        }
        return "\(ms)ms"
    }
}

extension Backend {
    /// Sets one setting of an app from strings (`server settings KEY=VALUE`).
    ///
    /// ```swift
    /// try backend.updateSetting(apiKey: "demo-key", key: "allowUserIdOnly", value: "false")
    /// ```
    /// Throws `invalidApiKey` for an unknown app, `badRequest` for an unknown
    /// key (the message lists the valid keys) or a bad value (it says what is
    /// expected).
    package func updateSetting(apiKey: String, key: String, value: String) throws(WireError) {
        try updateSettings(apiKey: apiKey, [(key, value)])
    }

    /// Changes several settings at once, in order: all of them, or none when
    /// one key or value is bad (it throws as ``updateSetting(apiKey:key:value:)``).
    package func updateSettings(apiKey: String, _ changes: [(key: String, value: String)]) throws(WireError) {
        try write { db in
            var settings = try Self.appSettings(db, apiKey: apiKey)
            for change in changes { try settings.set(change.key, to: change.value) }
            try db.execute(sql: "UPDATE app SET settings = ? WHERE apiKey = ?", arguments: [try Self.encode(settings), apiKey])
        }
    }

    /// The settings of an app as (key, value) strings, in ``AppSettings/keys``
    /// order; empty for an unknown app.
    package func settingsDescription(apiKey: String) -> [(String, String)] {
        (try? settings(apiKey: apiKey))?.described ?? []
    }
}
