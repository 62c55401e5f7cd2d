import ArgumentParser

/// `chatbench replay SESSION|FILE` (SPEC W7, W9). Not implemented yet.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a recorded session and compare its output (not implemented yet).",
        discussion: "Not implemented yet: exits with status 2."
    )

    @Argument(help: ArgumentHelp("A session id from the recording database, or a bundle file.", valueName: "session"))
    var session: String

    @Flag(help: "Re-record the session's output instead of comparing it.")
    var update = false

    @Flag(help: "Replay a server-mode session offline from its traffic tape.")
    var tape = false

    @Flag(help: "Print the result as JSON.")
    var json = false

    @OptionGroup var world: WorldOptions

    func run() throws {
        try world.checkSupported()
        try NotImplemented.exit("replay")
    }
}
