/// The one table of verbs: dispatch, help and completion all read it (W3).
struct CommandTable: Sendable {
    let specs: [CommandSpec]

    static let standard = CommandTable(specs:
        clientCommands + identityCommands + loginCommands + credentialCommands + dataCommands
        + otherSideCommands + worldCommands + appCommands + flowCommands + recordingCommands + metaCommands + sessionCommands)

    /// First words of every verb, without duplicates, sorted.
    var verbWords: [String] { Array(Set(specs.map { $0.words[0] })).sorted() }

    /// The verb of this name or alias.
    func spec(named name: String) -> CommandSpec? { specs.first { $0.name == name || $0.aliases.contains(name) } }

    /// The longest verb the tokens start with, and how many tokens it used.
    func match(_ tokens: [Token]) -> (CommandSpec, Int)? {
        var best: (CommandSpec, Int)?
        for spec in specs {
            let words = spec.words
            guard words.count <= tokens.count, words.count > (best?.1 ?? 0) else { continue }
            if zip(words, tokens).allSatisfy({ $0 == $1.text && !$1.quoted }) { best = (spec, words.count) }
            if best == nil, !tokens[0].quoted, spec.aliases.contains(tokens[0].text) { best = (spec, 1) }
        }
        return best
    }
}
