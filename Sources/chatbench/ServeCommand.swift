import ArgumentParser

/// `chatbench serve` (SPEC S3). Not implemented yet.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the backend as an HTTP + WebSocket server (not implemented yet).",
        discussion: "Not implemented yet: exits with status 2."
    )

    @Option(help: "The TCP port to listen on.")
    var port: Int = 8080

    @Option(help: ArgumentHelp("The server's SQLite database.", valueName: "path"), completion: .file())
    var db: String?

    func run() throws { try NotImplemented.exit("serve") }
}
