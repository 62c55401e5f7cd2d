extension Interpreter {
    /// Candidates for the word being typed at the end of `prefix` (W1):
    /// verbs, sub-verbs, options, handles, choices and field paths.
    func completions(forPrefix prefix: String) -> [String] {
        let endsWithSpace = prefix.last?.isWhitespace ?? true
        var words = prefix.split(whereSeparator: \.isWhitespace).map(String.init)
        let current = endsWithSpace ? "" : (words.popLast() ?? "")
        if words.count >= 2, words[1] == "=" { words.removeFirst(2) }
        let candidates: [String]
        if words.isEmpty {
            if current.contains(".") || current.contains("[") { return fieldCompletions(current) }
            candidates = table.verbWords + handles.roots
        } else if words.first == "expect" || words.first == "inspect" {
            if words.count == 1 {
                if current.contains(".") { return fieldCompletions(current) }
                candidates = handles.roots
            } else if words.count == 2, words[0] == "expect" {
                candidates = Comparison.allCases.map(\.rawValue)
            } else {
                candidates = []
            }
        } else if let (spec, used) = table.match(words.map { Token(text: $0, quoted: false, column: 0) }) {
            if current.hasPrefix("-") {
                candidates = spec.options.map(\.name)
            } else if let option = words.last.flatMap({ last in spec.options.first { $0.name == last } }), let kind = option.value {
                candidates = values(for: kind)
            } else {
                let positional = words.dropFirst(used).filter { !$0.hasPrefix("--") }.count
                if spec.arguments.first?.kind == .verb {
                    // `help clock a` → advance: the verb named so far, word by word;
                    // first, the topics and handles help also takes (`help wa` → watch, watchers).
                    let named = Array(words.dropFirst(used))
                    candidates = verbWords(after: named) + (named.isEmpty ? HelpTopics.pages.map(\.name) + objects.keys.sorted() : [])
                } else if positional < spec.arguments.count {
                    candidates = values(for: spec.arguments[positional].kind)
                } else if let last = spec.arguments.last, last.variadic {
                    candidates = values(for: last.kind)
                } else {
                    candidates = spec.options.map(\.name)
                }
            }
        } else {
            // A sub-verb: `net o` → online, offline.
            candidates = verbWords(after: words)
        }
        return Array(Set(candidates.filter { $0.hasPrefix(current) })).sorted()
    }

    private func values(for kind: ArgumentKind) -> [String] {
        switch kind {
        case .choice(let choices): return choices
        case .handle(let kind):
            if kind == .client { return clients.map(\.name) }
            return objects.filter { kind == .any || SessionObjects.kind(of: $0.value) == kind }.map(\.key).sorted()
        case .text, .file, .duration, .count, .verb: return []
        }
    }

    /// The words that can follow `typed` in a verb's name: every verb's first
    /// word when nothing is typed, `online`, `offline`… after `net`.
    private func verbWords(after typed: [String]) -> [String] {
        let joined = typed.joined(separator: " ")
        return table.specs.compactMap { spec in
            let name = spec.words
            guard name.count > typed.count, name.prefix(typed.count).joined(separator: " ") == joined else { return nil }
            return name[typed.count]
        }
    }

    /// `w1.st` → `w1.state`; `server.me` → `server.messages(`.
    private func fieldCompletions(_ word: String) -> [String] {
        guard let dot = word.lastIndex(of: ".") else { return [] }
        let base = String(word[..<dot])
        let partial = String(word[word.index(after: dot)...])
        guard let path = try? PathExpression.parse(base), handles.isKnownRoot(path.root),
            case .object(let object)? = try? context.inspection.evaluate(path)
        else { return [] }
        return object.pathFieldNames
            .map { $0.hasSuffix(")") ? String($0.prefix(while: { $0 != "(" })) + "(" : $0 }
            .filter { $0.hasPrefix(partial) }
            .map { base + "." + $0 }
    }
}
