import ArgumentParser

/// `chatbench sessions [list|show ID]` (SPEC W5). Not implemented yet.
struct SessionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions",
        abstract: "List or show recorded sessions (not implemented yet).",
        subcommands: [List.self, Show.self],
        defaultSubcommand: List.self
    )

    /// Options of both `sessions` subcommands.
    struct Options: ParsableArguments {
        @Option(help: ArgumentHelp("The recording database.", valueName: "path"), completion: .file())
        var db: String?

        @Flag(help: "Print as JSON.")
        var json = false
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List recorded sessions (not implemented yet).",
            discussion: "Not implemented yet: exits with status 2."
        )

        @OptionGroup var options: Options

        func run() throws { try NotImplemented.exit("sessions list") }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show one recorded session's steps (not implemented yet).",
            discussion: "Not implemented yet: exits with status 2."
        )

        @Argument(help: ArgumentHelp("The session's id.", valueName: "id"))
        var id: String

        @OptionGroup var options: Options

        func run() throws { try NotImplemented.exit("sessions show") }
    }
}
