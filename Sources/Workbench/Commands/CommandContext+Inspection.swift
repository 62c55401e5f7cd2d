extension CommandContext.Inspection {
    /// Resolves a path against the session's objects.
    func evaluate(_ path: PathExpression) throws(ScriptError) -> Resolved {
        var resolved = try root(path.root)
        var walked = path.root
        for step in path.steps {
            switch step {
            case .index(let i):
                let items: [Resolved]
                switch resolved {
                case .list(let list): items = list
                case .object(let object as WatcherObject): items = object.elementObjects(in: handles).map { .object($0) }
                default: throw ScriptError(.wrongKind, "\(walked) is not a list: [\(i)] needs a list or a watcher")
                }
                guard i < items.count else {
                    throw ScriptError(
                        .outOfRange,
                        "\(walked)[\(i)] is out of range: \(walked) holds \(items.count) element\(items.count == 1 ? "" : "s")")
                }
                resolved = items[i]
                walked += "[\(i)]"
            case .field(let name, let argument):
                switch resolved {
                case .object(let object):
                    guard let next = try object.field(name, argument: argument, in: handles) else {
                        throw ScriptError(
                            .unknownField,
                            "\(walked) has no field \"\(name)\"\(Suggestion.hint(for: name, in: object.pathFieldNames)); fields: \(object.pathFieldNames.joined(separator: ", "))"
                        )
                    }
                    resolved = next
                case .list(let items):
                    guard name == "count" else {
                        throw ScriptError(.unknownField, "\(walked) is a list: its only field is count")
                    }
                    resolved = .value(.int(Int64(items.count)))
                case .value(let value):
                    if name == "count", case .string(let s) = value {
                        resolved = .value(.int(Int64(s.count)))
                    } else {
                        throw ScriptError(.unknownField, "\(walked) is a value (\(value.description)), it has no field \"\(name)\"")
                    }
                }
                walked += "." + name + (argument.map { "(\($0))" } ?? "")
            }
        }
        return resolved
    }

    private func root(_ name: String) throws(ScriptError) -> Resolved {
        switch name {
        case "client": return .object(handles.current)
        case "error": return .object(ErrorObject(error: state.lastError))
        case "server": return .object(ServerObject(world: handles.stage))
        case "provider": return .object(ProviderObject(client: handles.current))
        case "clock": return .object(ClockObject(world: handles.stage, start: handles.start))
        case "net": return .object(NetObject(world: handles.stage))
        case "delegate": return .object(handles.current.delegate)
        default:
            if let client = handles.clients.first(where: { $0.name == name }) { return .object(client) }
            return .object(try handles.resolve(name, as: .any))
        }
    }

    /// Prints what inspection shows for a resolved path.
    func show(_ resolved: Resolved) {
        switch resolved {
        case .value(let value): output.print(value.description)
        case .object(let object): output.print(object.summary(in: handles))
        case .list(let items):
            if items.isEmpty { output.print("[]") }
            for (i, item) in items.enumerated() {
                switch item {
                case .object(let object): output.print("[\(i)] \(object.summary(in: handles))")
                default: output.print("[\(i)] \(item.value.description)")
                }
            }
        }
    }

    /// `inspect HANDLE`: every field, then the history.
    func inspect(_ object: any Inspectable) {
        output.print(object.summary(in: handles))
        let width = object.fieldNames.map(\.count).max() ?? 0
        for name in object.fieldNames {
            guard let value = try? object.field(name, argument: nil, in: handles) else { continue }
            let padded = name + String(repeating: " ", count: width - name.count)
            switch value {
            case .object(let inner): output.print("  \(padded)  \(inner.handle)")
            default: output.print("  \(padded)  \(value.value.description)")
            }
        }
        let history = object.history(in: handles)
        if !history.isEmpty {
            output.print("  \(object.historyTitle):")
            for line in history {
                var indented = StyledText("    ")
                indented.append(line)
                output.print(styled: indented)
            }
        }
    }

    /// `expect PATH [OP VALUE]`.
    /// The right side of a comparison as a path: unquoted, with a field,
    /// an index or a call after a known handle (`m1.text`, `w1[0]`,
    /// `server.messages(c1).count`); nil for a value.
    private func rightHandPath(_ token: Token) -> PathExpression? {
        guard !token.quoted, token.text.contains(where: { $0 == "." || $0 == "[" || $0 == "(" }),
            let path = try? PathExpression.parse(token.text), isKnownRoot(path.root)
        else { return nil }
        return path
    }

    func expect(_ tokens: [Token]) throws -> CommandOutcome {
        guard let first = tokens.first else {
            throw ScriptError(.syntax, "expect needs a path: expect HANDLE.field OP VALUE, as in expect w1.count == 2")
        }
        let path = try PathExpression.parse(first.text)
        guard isKnownRoot(path.root) else {
            let candidates = roots
            throw ScriptError(.unknownHandle, "unknown handle \"\(path.root)\"\(Suggestion.hint(for: path.root, in: candidates))")
        }
        let found = try evaluate(path).value
        let text = tokens.map { $0.quoted ? Value.string($0.text).description : $0.text }.joined(separator: " ")
        let holds: Bool
        let expectation: String
        switch tokens.count {
        case 1:
            holds = !(found == .none || found == .bool(false) || found == .int(0) || found == .list([]) || found == .string(""))
            expectation = "a value that is not none, false, 0 or empty"
        case 3:
            guard let comparison = Comparison(rawValue: tokens[1].text), !tokens[1].quoted else {
                let names = Comparison.allCases.map(\.rawValue)
                throw ScriptError(
                    .syntax,
                    "unknown comparison \"\(tokens[1].text)\": use one of \(names.joined(separator: " "))\(Suggestion.hint(for: tokens[1].text, in: names))"
                )
            }
            // A path on the right (`m1.text`, `w1[0].id`) is a path; a
            // quoted string, a number or a bare word is a value.
            if let other = rightHandPath(tokens[2]) {
                let expected = try evaluate(other).value
                holds = try comparison.holds(found, expected)
                expectation = "\(comparison.rawValue) \(tokens[2].text) (\(expected.description))"
            } else {
                let expected = Value.literal(tokens[2])
                holds = try comparison.holds(found, expected)
                expectation = "\(comparison.rawValue) \(expected.description)"
            }
        default:
            throw ScriptError(.syntax, "expect takes a path, or a path, an operator and a value: expect w1.count == 2")
        }
        if holds {
            output.print("ok: \(text)", as: .success)
            return .done
        }
        let failure = "expected \(expectation), found \(found.description)"
        state.stepFailure = failure
        output.print("expect failed: \(text) — \(failure)", as: .failure)
        return .expectFailed
    }
}
