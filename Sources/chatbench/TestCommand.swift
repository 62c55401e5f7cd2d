import ArgumentParser

/// `chatbench test PATH...` (SPEC W8). Not implemented yet.
struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run .chat files as tests (not implemented yet).",
        discussion: "A folder means every *.chat file in it. Not implemented yet: exits with status 2."
    )

    @Argument(help: ArgumentHelp("Transcripts, scripts or folders of them.", valueName: "path"),
              completion: .file(extensions: ["chat"]))
    var paths: [String]

    @Option(help: ArgumentHelp("Write a JUnit XML report to this file.", valueName: "file"), completion: .file())
    var junit: String?

    @Flag(help: "Rewrite the expected output of transcripts (never when CI is set).")
    var update = false

    @Flag(help: "Print results as JSON.")
    var json = false

    @OptionGroup var world: WorldOptions

    func run() throws {
        try world.checkSupported()
        try NotImplemented.exit("test")
    }
}
