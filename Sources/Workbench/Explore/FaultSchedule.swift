import ChatCore
import ChatSimulation

/// The faults of one exploration run, drawn from a seed and the run's
/// number: ordinary verbs inserted between a script's steps, so that a
/// failing run is saved as a script anyone can read and `chatbench run`.
///
/// Faults inside a step's in-flight work are verbs too: `net offline
/// --after 30ms` takes the network down 30 ms of virtual time into the next
/// command's work, while its requests are on the wire (and with
/// `--in-flight after-commit`, loses each of them after the server did it).
package struct FaultSchedule: Sendable, Hashable {
    /// The kinds of fault `--faults` can pick.
    package enum Kind: String, Sendable, Hashable, CaseIterable {
        case offline, fail, drop, latency, restart, background, provider, expire, revoke, clock
        /// One client's own link down for a while (`net offline --client`).
        case link
        /// The network cut in the middle of the next step's work, each
        /// request on the wire lost before or after the server committed
        /// it (`net offline --after D --in-flight before-commit|after-commit`),
        /// and back a little later.
        case cut

        /// The kinds drawn when none are named: all but ``cut``, so that a
        /// seed draws the schedules it drew before that kind existed.
        package static let defaults = Set(allCases).subtracting([.cut])
    }

    /// Verbs to run before step `index` (0-based), in order.
    package var before: [Int: [String]]

    package init(before: [Int: [String]] = [:]) { self.before = before }

    /// The schedule of run `run` under `seed`, for a script of `steps` steps:
    /// `count` faults (1 to 3 unless asked for more), each of a kind drawn
    /// from `kinds`, before a step drawn from the script's. `clients` names
    /// the clients that exist before a step (``clients(in:)``), for a link
    /// fault to pick one of.
    package static func draw(
        seed: UInt64, run: Int, steps: Int, kinds: Set<Kind>, count: ClosedRange<Int> = 1...3,
        clients: (_ beforeStep: Int) -> [String] = { _ in ["client"] }
    ) -> FaultSchedule {
        var random = SeededRandom(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(run) &* 0xBF58_476D_1CE4_E5B9 &+ 1)
        var schedule = FaultSchedule()
        let chosen = Kind.allCases.filter(kinds.contains)
        guard steps > 0, !chosen.isEmpty else { return schedule }
        let faults = count.lowerBound + Int(random.next() % UInt64(count.count))
        for _ in 0..<faults {
            let kind = chosen[Int(random.next() % UInt64(chosen.count))]
            let at = Int(random.next() % UInt64(steps))
            let millis = 5 + Int(random.next() % 120)
            var verbs: [String]
            switch kind {
            case .offline:
                // Down between steps or in the middle of the next one's work,
                // and back a little later.
                let inside = random.next() % 2 == 0
                verbs = [inside ? "net offline --after \(millis)ms" : "net offline"]
                let back = min(steps, at + 1 + Int(random.next() % 3))
                schedule.before[back, default: []].append("net online")
            case .fail:
                // Each kind of failure a real transport produces (D7).
                let count = 1 + random.next() % 3
                let failure = FailureKind.allCases[Int(random.next() % UInt64(FailureKind.allCases.count))]
                verbs = [failure == .reset ? "net fail \(count)" : "net fail \(count) --kind \(failure.rawValue)"]
            case .drop: verbs = ["net drop"]
            case .latency: verbs = ["net latency \(100 + random.next() % 900)ms"]
            case .restart: verbs = ["app restart"]
            case .background:
                verbs = ["app background"]
                schedule.before[min(steps, at + 1), default: []].append("app foreground")
            case .provider: verbs = ["provider fail"]
            case .expire: verbs = ["token expire"]
            case .revoke: verbs = ["token revoke"]
            case .clock: verbs = ["clock advance \(1 + random.next() % 90)m"]
            case .cut:
                let point = CutPoint.allCases[Int(random.next() % UInt64(CutPoint.allCases.count))]
                verbs = ["net offline --after \(millis)ms --in-flight \(point.rawValue)"]
                let back = min(steps, at + 1 + Int(random.next() % 3))
                schedule.before[back, default: []].append("net online")
            case .link:
                // One device offline while the others stay online, and its
                // link back a little later (at the end at the latest).
                let names = clients(at)
                let name = names[Int(random.next() % UInt64(names.count))]
                verbs = ["net offline --client \(name)"]
                let back = min(steps, at + 1 + Int(random.next() % 3))
                schedule.before[back, default: []].append("net online --client \(name)")
            }
            schedule.before[at, default: []].insert(contentsOf: verbs, at: 0)
        }
        return schedule
    }

    /// The clients that exist before each step of `lines`: `client`, and
    /// each one `client new NAME` made in an earlier step.
    package static func clients(in lines: [String]) -> (_ beforeStep: Int) -> [String] {
        var before: [[String]] = [["client"]]
        for line in lines {
            var names = before[before.count - 1]
            let words = ((try? Tokenizer.tokenize(line)) ?? []).map(\.text)
            if words.count >= 3, words[0] == "client", words[1] == "new", !names.contains(words[2]) { names.append(words[2]) }
            before.append(names)
        }
        return { step in before[min(max(step, 0), before.count - 1)] }
    }

    /// The script's lines with the faults in place.
    package func apply(to lines: [String]) -> [String] {
        var out: [String] = []
        for (index, line) in lines.enumerated() {
            out += before[index] ?? []
            out.append(line)
        }
        out += before[lines.count] ?? []
        return out
    }

    /// What every run ends with: the world healed (network back, app in
    /// front, the provider answering) and given time for every recovery.
    package static let heal = ["net online", "net latency 20ms", "app foreground", "provider ok", "settle", "clock advance 2m", "settle"]
}
