import Foundation

/// What a worker says of a shrink trial while it runs it, before its
/// answer (``WorkerAnswer/progress(_:)``): written by the worker and read
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

    /// What a trial's progress said so far: the step it was on, and what
    /// each step before it printed.
    struct SoFar: Equatable {
        var step: Int?
        var outputs: [[String]] = []

        /// Takes in what the worker said next.
        mutating func read(_ progress: TrialProgress) {
            switch progress {
            case .willRun(let step): self.step = step
            // In order, one per step.
            case .ran(let step, let output) where step == outputs.count: outputs.append(output)
            case .ran: break
            }
        }
    }
}
