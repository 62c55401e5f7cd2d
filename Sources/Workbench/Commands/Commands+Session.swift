import Foundation

extension CommandTable {
    /// Verbs about the session itself rather than the world: timing,
    /// history, starting over.
    static let sessionCommands: [CommandSpec] = [
        CommandSpec(
            name: "timing", group: .meta,
            arguments: [ArgumentSpec(name: "STATE", kind: .choice(["on", "off"]))],
            summary: "after each command, print the virtual time it took and the wall time (like psql's \\timing)",
            example: "timing on",
            keepsError: true,
            run: { context, invocation in
                context.session.timing = invocation.argument(0) == "on"
                context.output.print("timing is \(context.session.timing ? "on" : "off")")
                return .done
            }),
        CommandSpec(
            name: "history", group: .meta,
            arguments: [ArgumentSpec(name: "N|-k WORD", kind: .text, optional: true, variadic: true)],
            summary: "the last N lines typed (default 20), secrets redacted; -k WORD: the lines holding WORD",
            example: "history -k send",
            keepsError: true,
            run: { context, invocation in
                let all = context.session.history
                let words = invocation.arguments.map(\.text)
                let numbered = all.enumerated().map { (number: $0.offset + 1, line: $0.element) }
                let shown: [(number: Int, line: String)]
                switch words.count {
                case 0: shown = Array(numbered.suffix(20))
                case 1:
                    guard let n = Int(words[0]), n >= 0 else {
                        throw ScriptError(
                            .badValue,
                            "history takes a number of lines or -k WORD, got \"\(words[0])\": as in history 10, history -k send")
                    }
                    shown = Array(numbered.suffix(n))
                case 2 where words[0] == "-k":
                    shown = numbered.filter { $0.line.range(of: words[1], options: .caseInsensitive) != nil }
                    if shown.isEmpty { context.output.print("no line of the history holds \(Format.quoted(words[1]))") }
                default:
                    throw ScriptError(.badValue, "history takes a number of lines or -k WORD: as in history 10, history -k send")
                }
                let width = String(shown.last?.number ?? 0).count
                for entry in shown {
                    let number = String(entry.number)
                    context.output.print(String(repeating: " ", count: width - number.count + 2) + number + "  " + entry.line)
                }
                return .done
            }),
        CommandSpec(
            name: "reset", group: .meta,
            summary: "throw the world away and start a fresh one with the same seed (handles start again at 1)",
            example: "reset",
            run: { context, _ in
                guard context.world.isEmbedded else {
                    throw ScriptError(
                        .needsEmbeddedWorld, "reset needs the embedded world: against a server, leave and start chatbench again")
                }
                context.session.requestReset()
                context.output.print("a fresh world, seed \(context.session.seed): every handle is gone")
                return .done
            }),
    ]
}
