import Workbench

/// Puts a command line in the order the parser wants: the workbench's
/// options may come before the subcommand (`chatbench --no-record run
/// f.chat`), and a word that is no subcommand is refused with the closest
/// one (`chatbench sesions` → did you mean sessions?) rather than taken
/// for the REPL's.
enum ArgumentOrder {
    enum Outcome: Equatable {
        case arguments([String])
        /// One line for standard error; exit status 2.
        case unknownSubcommand(String)
    }

    /// `arity` says how many values an option of the workbench takes (0 for
    /// a flag, 1 for `--seed N`), nil for one it does not know: the line is
    /// then left to the parser as it is, as are the parser's own
    /// `--generate-completion-script SHELL` and `---completion` calls.
    static func normalize(_ arguments: [String], subcommands: [String], arity: (String) -> Int?) -> Outcome {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" || argument.hasPrefix("---") { return .arguments(arguments) }
            if argument.hasPrefix("-") {
                let name = String(argument.prefix { $0 != "=" })
                guard let count = arity(name) else { return .arguments(arguments) }
                index += argument.contains("=") ? 1 : 1 + count
                continue
            }
            guard subcommands.contains(argument) else {
                return .unknownSubcommand(
                    "chatbench: unknown subcommand \"\(argument)\"\(Suggestion.hint(for: argument, in: subcommands)); chatbench --help lists them"
                )
            }
            guard index > 0 else { return .arguments(arguments) }
            var reordered = arguments
            reordered.remove(at: index)
            reordered.insert(argument, at: 0)
            return .arguments(reordered)
        }
        return .arguments(arguments)
    }
}
