import Testing

@testable import ChatSDK

extension TrafficEntry.Kind {
    /// A test's row written as its summary reads (`ok sent`, `closed: …`),
    /// typed as a row of a file from before v8 is; a summary that is no
    /// kind fails the test rather than pass as ``untyped(_:)``.
    static func described(
        _ summary: String, _ channel: TrafficEntry.Channel, _ direction: TrafficEntry.Direction, _ origin: TrafficEntry.Origin,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Self {
        let kind = Self(legacySummary: summary, channel: channel, direction: direction, origin: origin)
        if case .untyped = kind { Issue.record("\(summary) is no kind", sourceLocation: sourceLocation) }
        return kind
    }
}
