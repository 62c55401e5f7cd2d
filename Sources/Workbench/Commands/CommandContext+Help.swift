import Foundation

extension CommandContext.Inspection {
    /// `help`, `help VERB`, `help TOPIC`, `help HANDLE`, `help -k WORD`.
    func help(_ words: [String]) throws(ScriptError) {
        let width = helpWidth
        if words.isEmpty {
            output.print(lines: table.helpText(width: width, inspection: inspectionList()))
            return
        }
        if words[0] == "-k" {
            guard words.count == 2 else { throw ScriptError(.missingArgument, "help -k needs one word to search for, as in help -k token") }
            let word = words[1]
            let found = table.specs.filter {
                $0.usage.range(of: word, options: .caseInsensitive) != nil || $0.summary.range(of: word, options: .caseInsensitive) != nil
            }
            let topics = HelpTopics.pages.filter { page in
                page.summary.range(of: word, options: .caseInsensitive) != nil
                    || page.lines.contains { $0.range(of: word, options: .caseInsensitive) != nil }
            }
            guard !found.isEmpty || !topics.isEmpty else {
                output.print("nothing in help mentions \(Format.quoted(word))")
                return
            }
            output.print(lines: HelpLayout.lines(found.map { ($0.usage, $0.summary) }, width: width))
            for page in topics { output.print("  topic \(page.name): \(page.summary) (help \(page.name))") }
            return
        }
        let name = words.joined(separator: " ")
        if let page = HelpTopics.page(name) {
            output.print(lines: page.flatMap { HelpTopics.wrap($0, width: width, indent: 0) })
            return
        }
        let specs = table.specs.filter { $0.name == name || $0.words.first == name || $0.aliases.contains(name) }
        if specs.isEmpty, words.count == 1, PathExpression.looksLikePath(name), isKnownRoot(name),
            case .object(let object) = try evaluate(PathExpression.parse(name))
        {
            output.print(
                "\(name) is \(handles.describeHandle(object.handle)); its fields: \(object.pathFieldNames.joined(separator: ", "))")
            output.print("\(name).FIELD shows one, inspect \(name) shows them all with their history.")
            return
        }
        guard !specs.isEmpty else {
            let candidates = table.specs.map(\.name) + table.verbWords + HelpTopics.pages.map(\.name)
            throw ScriptError(
                .unknownVerb, "no verb or topic \"\(name)\"\(Suggestion.hint(for: name, in: candidates)); help -k \(name) searches")
        }
        for spec in specs { output.print(lines: table.helpText(for: spec).flatMap { HelpTopics.wrap($0, width: width, indent: 4) }) }
    }

    /// `server: users, requests, messages(C)…`: what each built-in name reads.
    func inspectionList() -> [String] {
        SessionObjects.reservedRoots.filter { $0 != "error" }.compactMap { root in
            guard let path = try? PathExpression.parse(root), case .object(let object)? = try? evaluate(path) else { return nil }
            return "\(root): " + object.pathFieldNames.map { "\(root).\($0)" }.joined(separator: ", ")
        }
    }
}
