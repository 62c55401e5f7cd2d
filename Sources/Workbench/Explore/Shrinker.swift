/// Reduces a failing script to a smallest one that fails the same way
/// (`chatbench shrink`): delta debugging over its lines, then over the
/// amounts in them (fewer failures, shorter durations). It never edits a
/// handle, a name, a quoted string or an `expect` (issue 29: `watch items
/// c2` became `c1`, `"Refill 10mg"` became `"1mg"`), and never removes a
/// line marked `# keep`.
package struct Shrinker: Sendable {
    package var seed: UInt64 = 1
    package var checkExpects = true

    package init() {}

    package struct Result: Sendable, Hashable {
        package var lines: [String]
        package var signature: FailureSignature
        package var trials: Int
        /// False when a hang found on the way could not be found again: no
        /// smaller script hung when tried once more, and `lines` are the
        /// script as it was given (see ``Shrinker/reduce(_:input:replacing:pinned:confirming:signature:)``).
        package var confirmed = true
    }

    /// nil when `lines` does not fail at all. `check` runs a trial (by
    /// default here, with `Explorer.check`; `chatbench` runs each in a
    /// child process, so that a trial that crashes is a failure to keep).
    package func shrink(_ lines: [String], check: (([String]) throws -> [Violation])? = nil) throws -> Result? {
        let seed = self.seed
        let expects = checkExpects
        let check = check ?? { try Explorer.check($0, seed: seed, expects: expects) }
        let lines = lines.filter {
            !$0.trimmingCharacters(in: .whitespaces).isEmpty && !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#")
        }
        // A hang is a time limit passed, which a loaded machine passes
        // too: what shrinking found hanging is tried once more.
        guard
            let reduced = try Self.reduce(
                lines, input: { $0 }, replacing: { $1 }, confirming: { $0 == .violation(.hang) },
                signature: { Explorer.signature(of: try check($0)) })
        else { return nil }
        return Result(lines: reduced.elements, signature: reduced.signature, trials: reduced.trials, confirmed: reduced.confirmed)
    }

    /// The delta debugging both shrinks share (a script's lines, a
    /// transcript's steps): `elements` reduced to a smallest list whose
    /// `signature` is the one `elements` has, first by removing elements,
    /// then by making the amounts in each one's `input` smaller
    /// (`replacing` gives an element with another input); a `pinned`
    /// element, like a line marked `# keep`, is neither removed nor edited.
    /// nil when `elements` has no signature (it does not fail).
    ///
    /// When `confirming` says the signature depends on more than the
    /// elements (a hang: a time limit, which a loaded machine's slow run
    /// passes too), a trial that found it may have been wrong: the result
    /// is tried once more, and when it does not fail the same way again,
    /// the shrink goes on from the latest smaller list found before it that
    /// does (tried once more too, the latest first), or from the elements
    /// as given when none does. After three such passes, what is left is
    /// the last list tried twice, else the elements as given, not
    /// `confirmed`.
    package static func reduce<Element>(
        _ elements: [Element], input: (Element) -> String, replacing: (Element, String) -> Element,
        pinned: (Element) -> Bool = { _ in false }, confirming: (FailureSignature) -> Bool = { _ in false },
        signature check: ([Element]) throws -> FailureSignature?
    ) throws -> (elements: [Element], signature: FailureSignature, trials: Int, confirmed: Bool)? {
        var trials = 0
        func signature(_ candidate: [Element]) throws -> FailureSignature? {
            trials += 1
            return try check(candidate)
        }
        guard let target = try signature(elements) else { return nil }
        /// One pass from `start`: the smallest list found, and each list a
        /// trial found failing the same way on the way, in order.
        func pass(from start: [Element]) throws -> (current: [Element], accepted: [[Element]]) {
            var current = start
            var accepted: [[Element]] = []
            // ddmin: remove chunks, halving their size when nothing goes; a
            // line marked to keep stays whatever its chunk.
            var chunk = max(1, current.count / 2)
            while chunk >= 1 {
                var removedAny = false
                var start = 0
                while start < current.count {
                    let end = min(current.count, start + chunk)
                    let kept = current[start..<end].filter { pinned($0) || isKept(input($0)) }
                    let candidate = Array(current[..<start] + kept + current[end...])
                    if candidate.count < current.count, !candidate.isEmpty, try signature(candidate) == target {
                        current = candidate
                        accepted.append(candidate)
                        removedAny = true
                        start += kept.count
                    } else {
                        start += chunk
                    }
                }
                if !removedAny {
                    if chunk == 1 { break }
                    chunk /= 2
                }
            }
            // Then the numbers: each one as small as still fails the same way.
            for index in current.indices where !pinned(current[index]) {
                for smaller in smaller(input(current[index])) {
                    var candidate = current
                    candidate[index] = replacing(current[index], smaller)
                    if try signature(candidate) == target {
                        current = candidate
                        accepted.append(candidate)
                        break
                    }
                }
            }
            return (current, accepted)
        }
        guard confirming(target) else { return (try pass(from: elements).current, target, trials, true) }
        // A signature that a trial may find wrongly: the result must fail
        // the same way once more. When it does not, the latest list found
        // before it that does is shrunk again (the elements as given when
        // none does), three passes at most.
        var start = elements
        var startIsGiven = true
        var doubtful = false
        for _ in 0..<3 {
            let (current, accepted) = try pass(from: start)
            if accepted.isEmpty { return (current, target, trials, !(doubtful && startIsGiven)) }
            var again: [Element]?
            for (index, candidate) in accepted.enumerated().reversed() where try signature(candidate) == target {
                if index == accepted.count - 1 { return (candidate, target, trials, true) }
                again = candidate
                break
            }
            doubtful = true
            start = again ?? elements
            startIsGiven = again == nil
        }
        return (start, target, trials, !startIsGiven)
    }

    /// Whether a line is marked to keep: a trailing `# keep` comment.
    static func isKept(_ line: String) -> Bool {
        guard let hash = line.range(of: "#", options: .backwards) else { return false }
        return line[hash.upperBound...].trimmingCharacters(in: .whitespaces) == "keep"
    }

    /// The line with one of its amounts made smaller (1, then halves), for
    /// each amount: a word of its own that is a count (`net fail 8`) or a
    /// duration (`clock advance 10m`, `--after 30ms`), outside quotes. A
    /// handle (`c2`), a name, a quoted string, an `expect` line and a
    /// comment are left as they are.
    static func smaller(_ line: String) -> [String] {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.hasPrefix("expect"), !trimmed.hasPrefix("#") else { return [] }
        var candidates: [String] = []
        for range in amounts(in: line) {
            let word = line[range]
            let digits = word.prefix { $0.isNumber }
            guard let value = Int(digits), value > 1 else { continue }
            let unit = word.dropFirst(digits.count)
            var values: [Int] = [1]
            var half = value / 2
            while half > 1 {
                values.append(half)
                half /= 2
            }
            candidates += values.filter { $0 < value }.map { line.replacingCharacters(in: range, with: "\($0)\(unit)") }
        }
        return candidates
    }

    /// The ranges of the words of `line` that are amounts (see `smaller`),
    /// as the command line's tokenizer splits it: unquoted words, before a
    /// comment. A line it cannot split has none.
    private static func amounts(in line: String) -> [Range<String.Index>] {
        guard let tokens = try? Tokenizer.tokenize(line) else { return [] }
        return tokens.compactMap { token in
            guard !token.quoted, token.text.wholeMatch(of: /\d+(ms|s|m|h|d)?/) != nil else { return nil }
            // Columns count characters (bytes of an ASCII line), from 1.
            let start = line.index(line.startIndex, offsetBy: token.column - 1)
            return start..<line.index(start, offsetBy: token.text.count)
        }
    }
}
