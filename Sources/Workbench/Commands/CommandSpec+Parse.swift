extension CommandSpec {
    /// Checks a line's arguments and options (the words after the verb's)
    /// against this spec, and parses each by its kind; a handle must name
    /// an object of its kind in `handles`.
    func parse(_ tokens: [Token], binding: String?, line: String, handles: SessionObjects) throws(ScriptError) -> Invocation {
        let spec = self
        var arguments: [Token] = []
        var options: [String: [String]] = [:]
        var optionValues: [String: [ArgumentValue]] = [:]
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            if !token.quoted, token.text.hasPrefix("--"), token.text.count > 2 {
                guard let option = spec.options.first(where: { $0.name == token.text }) else {
                    let names = spec.options.map(\.name)
                    let known = names.isEmpty ? "; \(spec.name) takes no options" : Suggestion.hint(for: token.text, in: names)
                    throw ScriptError(.unknownOption, "unknown option \(token.text) for \(spec.name)\(known)")
                }
                if let kind = option.value {
                    guard index < tokens.count else {
                        throw ScriptError(.missingArgument, "\(option.name) needs a value (\(option.valueName)): \(spec.usage)")
                    }
                    let value = tokens[index]
                    index += 1
                    optionValues[option.name, default: []].append(try Self.check(value, as: kind, name: option.name, handles: handles))
                    options[option.name, default: []].append(value.text)
                } else {
                    options[option.name, default: []].append("")
                }
                continue
            }
            arguments.append(token)
        }
        let required = spec.arguments.filter { !$0.optional }.count
        let variadic = spec.arguments.last?.variadic == true
        if arguments.count < required {
            let missing = spec.arguments[arguments.count]
            throw ScriptError(.missingArgument, "\(spec.name) needs \(missing.name): usage: \(spec.usage)")
        }
        if !variadic, arguments.count > spec.arguments.count {
            throw ScriptError(
                .unexpectedArgument,
                "too many arguments for \(spec.name) (unexpected \"\(arguments[spec.arguments.count].text)\"): usage: \(spec.usage)")
        }
        var argumentValues: [ArgumentValue] = []
        for (i, token) in arguments.enumerated() {
            let argument = spec.arguments[min(i, spec.arguments.count - 1)]
            argumentValues.append(try Self.check(token, as: argument.kind, name: argument.name, handles: handles))
        }
        return Invocation(
            spec: spec, arguments: arguments, options: options, argumentValues: argumentValues, optionValues: optionValues,
            binding: binding, line: line)
    }

    /// Checks a word against its kind; returns its value.
    private static func check(_ token: Token, as kind: ArgumentKind, name: String, handles: SessionObjects) throws(ScriptError)
        -> ArgumentValue
    {
        switch kind {
        case .text, .file, .verb: break
        case .duration: return .duration(try DurationParser.parse(token.text))
        case .count:
            guard let n = Int(token.text), n >= 0 else {
                throw ScriptError(.badValue, "\(name) must be a whole number, got \"\(token.text)\"")
            }
            return .count(n)
        case .choice(let choices):
            guard choices.contains(token.text) else {
                throw ScriptError(
                    .badValue,
                    "\(name) must be one of \(choices.joined(separator: ", ")), got \"\(token.text)\"\(Suggestion.hint(for: token.text, in: choices))"
                )
            }
        case .handle(.conversation) where SessionObjects.looksLikeConversationID(token.text):
            break
        case .handle(let kind):
            _ = try handles.resolve(token.text, as: kind)
        }
        return .word(token.text)
    }
}
