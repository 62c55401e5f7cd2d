import ChatSDK
import Foundation

extension CommandTable {
    static let flowCommands: [CommandSpec] = [
        CommandSpec(
            name: "expect", group: .flow,
            arguments: [
                ArgumentSpec(name: "PATH", kind: .text), ArgumentSpec(name: "OP VALUE", kind: .text, optional: true, variadic: true),
            ],
            summary: "check a value: == != < <= > >= contains; a failure makes a script exit 1",
            example: "expect m1.state == sent",
            keepsError: true,
            run: { context, invocation in try context.inspection.expect(invocation.arguments) }),
        CommandSpec(
            name: "wait", group: .flow,
            arguments: [
                ArgumentSpec(name: "HANDLE", kind: .handle(.any)),
                ArgumentSpec(name: "emits|state|done", kind: .choice(["emits", "state", "done"])),
                ArgumentSpec(name: "VALUE", kind: .text, optional: true),
            ],
            options: [
                OptionSpec(
                    name: "--within", value: .duration, valueName: "DURATION",
                    summary: "give up after this much virtual time (default 1h); giving up fails the step like an expect")
            ],
            summary:
                "move the clock, firing every wake-up on the way, until a watcher has emitted N times or a message reaches a state; done: until a message is sent or failed, or a watcher has refreshed (what a command started with & began is finished)",
            example: "wait m1 state sent --within 5m",
            run: { context, invocation in try context.world.wait(invocation) }),
        CommandSpec(
            name: "settle", group: .flow,
            summary:
                "run until nothing is in flight and no recovery (back-off, retry) is pending; lifecycle timers (token expiry, typing) are left for clock advance",
            example: "settle",
            run: { context, _ in
                context.world.settle()
                return .done
            }),
        CommandSpec(
            name: "run", group: .flow,
            arguments: [ArgumentSpec(name: "FILE", kind: .file)],
            summary: "run the lines of a script file in this session",
            example: "run examples/01-walking-skeleton.chat",
            run: { context, invocation in
                let path = invocation.argument(0)!
                guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                    throw ScriptError(.file, "cannot read \(path)")
                }
                try context.session.nested { () throws(ScriptError) in
                    let outer = context.output.lines
                    var collected: [StyledText] = []
                    // A transcript's inputs run; its expected output is ignored here
                    // (`chatbench test` checks it).
                    let inputs: [String]
                    switch Result(catching: { () throws(TranscriptError) in try Transcript.parse(text, path: path) }) {
                    case .success(let transcript): inputs = transcript.blocks.map(\.input)
                    case .failure(let error): throw ScriptError(.file, error.message)
                    }
                    for line in inputs {
                        let step = context.session.execute(line)
                        if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
                        collected.append(StyledText("> \(line)"))
                        // Its lines, with what each is (an error stays one).
                        if !step.styledOutput.isEmpty { collected.append(step.styledOutput.droppingLastNewline()) }
                    }
                    context.output.lines = outer + collected
                    // What the script's lines made is theirs, not this line's.
                    context.output.made = nil
                }
                return .done
            }),
    ]

    static let metaCommands: [CommandSpec] = [
        CommandSpec(
            name: "help", aliases: ["?"], group: .meta,
            arguments: [ArgumentSpec(name: "VERB", kind: .verb, optional: true, variadic: true)],
            summary: "list verbs by group; help VERB, help TOPIC, help HANDLE, help -k WORD",
            example: "help send",
            keepsError: true,
            run: { context, invocation in
                try context.inspection.help(invocation.arguments.map(\.text))
                return .done
            }),
        CommandSpec(
            name: "inspect", group: .meta,
            arguments: [ArgumentSpec(name: "HANDLE", kind: .text)],
            summary: "everything about an object, with its history and virtual times",
            example: "inspect w1",
            keepsError: true,
            run: { context, invocation in
                let inspection = context.inspection
                let path = try PathExpression.parse(invocation.argument(0)!)
                guard inspection.isKnownRoot(path.root) else {
                    throw ScriptError(
                        .unknownHandle, "unknown handle \"\(path.root)\"\(Suggestion.hint(for: path.root, in: inspection.roots))")
                }
                switch try inspection.evaluate(path) {
                case .object(let object): inspection.inspect(object)
                case let other: inspection.show(other)
                }
                return .done
            }),
        CommandSpec(
            name: "quit", aliases: ["q", "exit", "\\q", ":q"], group: .meta, summary: "leave (Ctrl-D too)", example: "quit",
            keepsError: true,
            run: { _, _ in .quit }),
    ]
}

extension CommandTable {
    /// `help`: verbs by group, summaries wrapped to `width` under their column.
    func helpText(width: Int? = nil, inspection: [String] = []) -> [String] {
        var lines: [String] = []
        for group in CommandGroup.allCases {
            let specs = self.specs.filter { $0.group == group }
            guard !specs.isEmpty else { continue }
            lines.append("\(group.rawValue):")
            lines += HelpLayout.lines(specs.map { ($0.usage, $0.summary) }, width: width, aligned: self.specs.map(\.usage))
        }
        lines += HelpTopics.wrap(
            "inspection: HANDLE[.field|[index]]... shows an object or a field, e.g. w1, m1.state, w1[0].text", width: width, indent: 2)
        lines += inspection.flatMap { HelpTopics.wrap("  " + $0, width: width, indent: 4) }
        lines += HelpTopics.wrap(
            "topics: " + HelpTopics.pages.map(\.name).joined(separator: ", ") + " (help TOPIC)", width: width, indent: 2)
        lines += HelpTopics.wrap(
            "help VERB shows usage and an example; help HANDLE the fields of an object; help -k WORD searches.", width: width, indent: 2)
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
        if !spec.aliases.isEmpty { lines.append("also: \(spec.aliases.joined(separator: ", "))") }
        lines.append("example: \(spec.example)")
        return lines
    }
}
