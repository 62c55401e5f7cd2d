import Foundation

/// What a worker says of a shrink trial while it runs it, before its
/// `done`: one value per line, written by the worker (``line``) and read
/// by `shrink` (``TrialProgress/SoFar``) through this one type, so that
/// the two sides cannot disagree on its form. (They did: the worker wrote
/// `output INDEX LINES` and `shrink` read the lines from after `output `,
/// its index first, so no line of what a crashed trial's steps printed
/// was ever read.)
enum TrialProgress: Codable, Hashable {
    /// Step `step` (from 0) is about to run: a crash from here on is its.
    case willRun(step: Int)
    /// Step `step` ran and printed `output`, line by line.
    case ran(step: Int, output: [String])

    /// What begins the line, before the value's JSON.
    private static let tag = "progress "

    /// The line the worker writes (after its protocol's prefix).
    var line: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return Self.tag + String(decoding: (try? encoder.encode(self)) ?? Data("null".utf8), as: UTF8.self)
    }

    /// A line the worker wrote; nil for another of its lines.
    init?(line: Substring) {
        guard line.hasPrefix(Self.tag),
            let value = try? JSONDecoder().decode(Self.self, from: Data(line.dropFirst(Self.tag.count).utf8))
        else { return nil }
        self = value
    }

    /// What a trial's progress said so far: the step it was on, and what
    /// each step before it printed.
    struct SoFar: Equatable {
        var step: Int?
        var outputs: [[String]] = []

        /// Takes in a line of the worker's; one of another kind changes nothing.
        mutating func read(_ line: Substring) {
            switch TrialProgress(line: line) {
            case .willRun(let step)?: self.step = step
            // In order, one per step.
            case .ran(let step, let output)? where step == outputs.count: outputs.append(output)
            case .ran?, nil: break
            }
        }
    }
}
