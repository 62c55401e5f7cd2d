import Foundation

/// Where chatbench keeps per-user state that is not data worth backing up
/// (the REPL's history): `$XDG_STATE_HOME/chatbench`, by default
/// `~/.local/state/chatbench`.
enum StateDirectory {
    static func url(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        // The XDG spec says to ignore relative paths.
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return URL(fileURLWithPath: state, isDirectory: true).appendingPathComponent("chatbench", isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".local/state/chatbench", isDirectory: true)
    }
}
