import ChatSimulation

/// `--in-flight before-commit|after-commit` on `net offline` and `net drop`
/// (issue 29): what cutting the network does to each request on the wire.
/// Without it, nothing changes: `net offline` fails each request where it
/// is when its leg ends, and `net drop` leaves requests alone.
struct InFlightCut {
    /// Where each request on the wire is lost.
    let point: CutPoint
    /// The verb, which the client's error names (`net offline`).
    let cause: String

    static let option = OptionSpec(
        name: "--in-flight", value: .choice(CutPoint.allCases.map(\.rawValue)), valueName: "before-commit|after-commit",
        summary:
            "lose each request on the wire at once, as a lost connection: before-commit (the server never gets it) or after-commit (the server does it, its answer is lost; the resend is de-duplicated); without it a request on the wire goes on until its leg ends (embedded world only)"
    )

    /// The cut `invocation` asks for; nil without `--in-flight`. Only the
    /// embedded world holds its requests on the wire: a real server has
    /// them in its sockets, out of reach.
    init?(_ invocation: Invocation, in world: CommandContext.World) throws(ScriptError) {
        guard let word = invocation.option("--in-flight") else { return nil }
        guard let point = CutPoint(rawValue: word) else {
            throw ScriptError(.badValue, "--in-flight must be one of before-commit, after-commit, got \(Format.quoted(word))")
        }
        guard world.stage is EmbeddedStage else {
            throw ScriptError(
                .needsEmbeddedWorld,
                "\(invocation.spec.name) --in-flight needs the embedded world: a real server's requests are in its sockets, where they cannot be lost before or after its commit on demand"
            )
        }
        self.point = point
        cause = invocation.spec.name
    }

    /// Cuts the requests on the wire of `link` (the whole network's, or
    /// one client's); returns the line saying what was lost.
    func cut(_ network: NetworkConditions, link: NetLink) -> String {
        Self.describe(network.cutInFlight(at: point, cause: cause, device: link.device), of: link.of)
    }

    /// `lost 1 request in flight after the server committed it: sendMessage`
    /// (`of` names the client whose link was cut: ` of tablet`).
    static func describe(_ lost: [(name: String, fate: CutPoint)], of: String = "") -> String {
        guard let first = lost.first else { return "no request\(of) was in flight" }
        let requests = "lost \(lost.count) request\(lost.count == 1 ? "" : "s")\(of) in flight"
        if lost.allSatisfy({ $0.fate == first.fate }) {
            return "\(requests) \(place(first.fate, plural: lost.count > 1)): \(lost.map(\.name).joined(separator: ", "))"
        }
        return "\(requests): " + lost.map { "\($0.name) \(place($0.fate, plural: false))" }.joined(separator: ", ")
    }

    private static func place(_ fate: CutPoint, plural: Bool) -> String {
        switch fate {
        case .beforeCommit: plural ? "before they reached the server" : "before it reached the server"
        case .afterCommit: plural ? "after the server committed them" : "after the server committed it"
        }
    }
}
