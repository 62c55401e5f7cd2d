import ChatSDK
import Foundation

extension CommandTable {
    static let flowCommands: [CommandSpec] = [
        CommandSpec(
            name: "expect", group: .flow,
            arguments: [ArgumentSpec(name: "PATH", kind: .text), ArgumentSpec(name: "OP VALUE", kind: .text, optional: true, variadic: true)],
            summary: "check a value: == != < <= > >= contains; a failure makes a script exit 1",
            example: "expect m1.state == sent",
            keepsError: true,
            run: { interpreter, invocation in try interpreter.expect(invocation.arguments) }),
        CommandSpec(
            name: "wait", group: .flow,
            arguments: [
                ArgumentSpec(name: "HANDLE", kind: .handle(.any)),
                ArgumentSpec(name: "emits|state", kind: .choice(["emits", "state"])),
                ArgumentSpec(name: "VALUE", kind: .text),
            ],
            options: [OptionSpec(name: "--within", value: .duration, valueName: "DURATION",
                                 summary: "give up after this much virtual time (default 1h); giving up fails the step like an expect")],
            summary: "move the clock, firing every wake-up on the way, until a watcher has emitted N times or a message reaches a state",
            example: "wait m1 state sent --within 5m",
            run: { interpreter, invocation in try interpreter.wait(invocation) }),
        CommandSpec(
            name: "settle", group: .flow,
            summary: "run until nothing is in flight and no recovery (back-off, retry) is pending; lifecycle timers (token expiry, typing) are left for clock advance",
            example: "settle",
            run: { interpreter, _ in interpreter.settle() }),
        CommandSpec(
            name: "run", group: .flow,
            arguments: [ArgumentSpec(name: "FILE", kind: .file)],
            summary: "run the lines of a script file in this session",
            example: "run examples/01-walking-skeleton.chat",
            run: { interpreter, invocation in
                let path = invocation.argument(0)!
                guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                    throw ScriptError("cannot read \(path)")
                }
                guard interpreter.runDepth < 8 else { throw ScriptError("run is nested too deeply (a script that runs itself?)") }
                interpreter.runDepth += 1
                defer { interpreter.runDepth -= 1 }
                let outer = interpreter.lines
                var collected: [String] = []
                // A transcript's inputs run; its expected output is ignored here
                // (`chatbench test` checks it).
                let inputs: [String]
                do { inputs = try Transcript.parse(text, path: path).blocks.map(\.input) }
                catch let error as TranscriptError { throw ScriptError(error.message) }
                for line in inputs {
                    let step = interpreter.execute(line)
                    if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
                    collected.append("> \(line)")
                    collected += step.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
                }
                interpreter.lines = outer + collected
            }),
    ]

    static let metaCommands: [CommandSpec] = [
        CommandSpec(
            name: "help", group: .meta,
            arguments: [ArgumentSpec(name: "VERB", kind: .verb, optional: true, variadic: true)],
            summary: "list verbs by group, or show one verb's usage and an example",
            example: "help send",
            keepsError: true,
            run: { interpreter, invocation in
                let table = interpreter.table
                if invocation.arguments.isEmpty {
                    interpreter.lines += table.helpText()
                    return
                }
                let name = invocation.arguments.map(\.text).joined(separator: " ")
                let specs = table.specs.filter { $0.name == name || $0.words.first == name }
                guard !specs.isEmpty else {
                    throw ScriptError("no verb \"\(name)\"\(Suggestion.hint(for: name, in: table.specs.map(\.name) + table.verbWords))")
                }
                for spec in specs { interpreter.lines += table.helpText(for: spec) }
            }),
        CommandSpec(
            name: "inspect", group: .meta,
            arguments: [ArgumentSpec(name: "HANDLE", kind: .text)],
            summary: "everything about an object, with its history and virtual times",
            example: "inspect w1",
            keepsError: true,
            run: { interpreter, invocation in
                let path = try PathExpression.parse(invocation.argument(0)!)
                guard interpreter.isKnownRoot(path.root) else {
                    throw ScriptError("unknown handle \"\(path.root)\"\(Suggestion.hint(for: path.root, in: interpreter.objects.keys.sorted() + Interpreter.reservedRoots))")
                }
                switch try interpreter.evaluate(path) {
                case .object(let object): interpreter.inspect(object)
                case let other: interpreter.show(other)
                }
            }),
        CommandSpec(
            name: "quit", group: .meta, summary: "leave (Ctrl-D too)", example: "quit", keepsError: true,
            run: { _, _ in throw QuitRequest() }),
    ]
}

extension CommandTable {
    /// `help`: verbs by group.
    func helpText() -> [String] {
        var lines: [String] = []
        for group in CommandGroup.allCases {
            let specs = self.specs.filter { $0.group == group }
            guard !specs.isEmpty else { continue }
            lines.append("\(group.rawValue):")
            let width = specs.map(\.usage.count).max() ?? 0
            for spec in specs {
                lines.append("  \(spec.usage)\(String(repeating: " ", count: max(2, width - spec.usage.count + 2)))\(spec.summary)")
            }
        }
        lines.append("inspection: HANDLE[.field|[index]]... shows an object or a field, e.g. w1, m1.state, server.messages(c1)")
        lines.append("help VERB shows usage and an example.")
        return lines
    }

    /// `help VERB`.
    func helpText(for spec: CommandSpec) -> [String] {
        var lines = ["usage: \(spec.usage)", "  \(spec.summary)"]
        if !spec.options.isEmpty {
            lines.append("options:")
            let width = spec.options.map { $0.name.count + ($0.value == nil ? 0 : $0.valueName.count + 1) }.max() ?? 0
            for option in spec.options {
                let left = option.value == nil ? option.name : "\(option.name) \(option.valueName)"
                lines.append("  \(left)\(String(repeating: " ", count: width - left.count + 2))\(option.summary)")
            }
        }
        lines.append("example: \(spec.example)")
        return lines
    }
}
