/// The one table of verbs: dispatch, help and completion all read it (W3).
struct CommandTable: Sendable {
    let specs: [CommandSpec]
    /// Each spec's words, split once: `match` runs for every line.
    private let specWords: [[String]]
    /// The first words of the verbs that take a secret argument (W6): a
    /// line that starts with none of them gives the redactor nothing to learn.
    let secretArgumentVerbs: Set<String>

    init(specs: [CommandSpec]) {
        self.specs = specs
        specWords = specs.map(\.words)
        secretArgumentVerbs = Set(specs.filter { $0.arguments.contains(where: \.secret) }.map { $0.words[0] })
    }

    static let standard = CommandTable(
        specs:
            clientCommands + identityCommands + loginCommands + pushCommands + credentialCommands + dataCommands
            + otherSideCommands + worldCommands + appCommands + flowCommands + recordingCommands + metaCommands + sessionCommands)

    /// First words of every verb, without duplicates, sorted.
    var verbWords: [String] { Array(Set(specs.map { $0.words[0] })).sorted() }

    /// The verb of this name or alias.
    func spec(named name: String) -> CommandSpec? { specs.first { $0.name == name || $0.aliases.contains(name) } }

    /// The longest verb the tokens start with, and how many tokens it used.
    func match(_ tokens: [Token]) -> (CommandSpec, Int)? {
        var best: (index: Int, used: Int)?
        for index in specs.indices {
            let words = specWords[index]
            guard words.count <= tokens.count, words.count > (best?.used ?? 0) else { continue }
            if zip(words, tokens).allSatisfy({ $0 == $1.text && !$1.quoted }) { best = (index, words.count) }
            if best == nil, !tokens[0].quoted, specs[index].aliases.contains(tokens[0].text) { best = (index, 1) }
        }
        return best.map { (specs[$0.index], $0.used) }
    }
}
