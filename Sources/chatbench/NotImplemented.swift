import ArgumentParser

/// Subcommands that exist (with `--help`) before their feature does.
enum NotImplemented {
    /// Says so on standard error and exits with status 2.
    static func exit(_ subcommand: String) throws -> Never {
        Terminal.error("chatbench: `\(subcommand)` is not implemented yet")
        throw ExitCode(2)
    }
}
