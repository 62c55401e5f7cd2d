import ArgumentParser

/// `chatbench export SESSION FILE` (SPEC W8, W9). Not implemented yet.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a recorded session as a transcript (not implemented yet).",
        discussion: "Not implemented yet: exits with status 2."
    )

    @Argument(help: ArgumentHelp("The session's id.", valueName: "session"))
    var session: String

    @Argument(help: ArgumentHelp("The file to write.", valueName: "file"), completion: .file())
    var file: String

    @Flag(help: "Write a self-contained SQLite bundle instead of a transcript.")
    var bundle = false

    @Option(help: ArgumentHelp("The recording database.", valueName: "path"), completion: .file())
    var db: String?

    func run() throws { try NotImplemented.exit("export") }
}
