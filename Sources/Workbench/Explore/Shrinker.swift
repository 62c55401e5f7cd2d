/// Reduces a failing script to a smallest one that fails the same way
/// (`chatbench shrink`): delta debugging over its lines, then over the
/// numbers in them (fewer failures, shorter durations).
package struct Shrinker: Sendable {
    package var seed: UInt64 = 1
    package var checkExpects = true

    package init() {}

    package struct Result: Sendable, Hashable {
        package var lines: [String]
        package var signature: String
        package var trials: Int
    }

    /// nil when `lines` does not fail at all. `check` runs a trial (by
    /// default here, with `Explorer.check`; `chatbench` runs each in a
    /// child process, so that a trial that crashes is a failure to keep).
    package func shrink(_ lines: [String], check: (([String]) throws -> [Violation])? = nil) throws -> Result? {
        var trials = 0
        let seed = self.seed
        let expects = checkExpects
        let check = check ?? { try Explorer.check($0, seed: seed, expects: expects) }
        func signature(_ candidate: [String]) throws -> String? {
            trials += 1
            return Explorer.signature(of: try check(candidate))
        }
        let lines = lines.filter {
            !$0.trimmingCharacters(in: .whitespaces).isEmpty && !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#")
        }
        guard let target = try signature(lines) else { return nil }
        var current = lines
        // ddmin: remove chunks, halving their size when nothing goes.
        var chunk = max(1, current.count / 2)
        while chunk >= 1 {
            var removedAny = false
            var start = 0
            while start < current.count {
                let candidate = Array(current[..<start] + current[min(current.count, start + chunk)...])
                if !candidate.isEmpty, try signature(candidate) == target {
                    current = candidate
                    removedAny = true
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
        for index in current.indices {
            for smaller in Self.smaller(current[index]) {
                var candidate = current
                candidate[index] = smaller
                if try signature(candidate) == target {
                    current = candidate
                    break
                }
            }
        }
        return Result(lines: current, signature: target, trials: trials)
    }

    /// The line with its first number made smaller: 1, then halves.
    static func smaller(_ line: String) -> [String] {
        guard let range = line.range(of: #"\d+"#, options: .regularExpression), let value = Int(line[range]), value > 1 else { return [] }
        var values: [Int] = [1]
        var half = value / 2
        while half > 1 {
            values.append(half)
            half /= 2
        }
        return values.filter { $0 < value }.map { line.replacingCharacters(in: range, with: String($0)) }
    }
}
