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

    /// `takesValue` says whether an option (`--seed`) is followed by its value.
    static func normalize(_ arguments: [String], subcommands: [String], takesValue: (String) -> Bool) -> Outcome {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { return .arguments(arguments) }
            if argument.hasPrefix("-") {
                index += argument.contains("=") || !takesValue(argument) ? 1 : 2
                continue
            }
            guard subcommands.contains(argument) else {
                return .unknownSubcommand(
                    "chatbench: unknown subcommand \"\(argument)\"\(Suggestion.hint(for: argument, in: subcommands)); chatbench --help lists them")
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
