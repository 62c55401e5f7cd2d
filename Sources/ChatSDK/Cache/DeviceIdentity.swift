import Foundation

/// This install's device id (C4): the configuration's when it names one,
/// else an id generated the first time and kept in the cache folder
/// (`device-id`), so that every install has its own and keeps it across
/// launches. Without a folder to keep it in (no disk cache, or a folder
/// that cannot be written), an id for this client's life, and a warning.
struct DeviceIdentity: Sendable, Hashable {
    /// The device id the client uses.
    var id: String
    /// Why the id could not be kept, if it could not.
    var warning: String?

    static let fileName = "device-id"

    /// The id a client with `configuration` uses; `generate` makes a new one.
    static func resolve(_ configuration: ChatClient.Configuration, generate: () -> String) -> DeviceIdentity {
        if let id = configuration.deviceId { return DeviceIdentity(id: id) }
        guard configuration.cacheMode == .disk, let folder = configuration.cacheDirectory else {
            return DeviceIdentity(id: generate())
        }
        if let stored = stored(in: folder) { return DeviceIdentity(id: stored) }
        let id = generate()
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            // Written whole or not at all: a half-written id would be another device.
            try Data((id + "\n").utf8).write(to: URL(fileURLWithPath: path(in: folder)), options: .atomic)
            return DeviceIdentity(id: id)
        } catch {
            return DeviceIdentity(
                id: id,
                warning: "the device id cannot be kept in \(folder) (\(error.localizedDescription)); this client uses \(id) until it stops")
        }
    }

    /// The id kept in `folder`, if there is a readable one.
    static func stored(in folder: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path(in: folder)),
            let text = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
            isValid(text)
        else { return nil }
        return text
    }

    static func path(in folder: String) -> String { folder + "/" + fileName }

    /// A new random id: an install's identity, not part of any simulated
    /// world, so it does not draw from the runtime's seeded randomness.
    static func generate() -> String { "device-" + UUID().uuidString.lowercased() }

    static func isValid(_ id: String) -> Bool {
        !id.isEmpty && id.count <= 256 && id.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }
    }

    /// The platform's folder for an app's own data, with a `ChatSDK` folder
    /// in it: Application Support on Apple platforms, the XDG data folder
    /// on Linux (`$XDG_DATA_HOME`, else `~/.local/share`). Nil when there is
    /// no such folder (no home directory).
    static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        #if os(Linux) || os(Android) || os(FreeBSD) || os(OpenBSD)
            if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/ChatSDK" }
            guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
            return home + "/.local/share/ChatSDK"
        #else
            guard let folder = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first else { return nil }
            return folder.appendingPathComponent("ChatSDK").path
        #endif
    }
}
