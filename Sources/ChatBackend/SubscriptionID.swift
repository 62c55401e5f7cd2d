/// Identifies a realtime subscription made with `Backend.subscribe`, so that
/// it can be ended with `Backend.unsubscribe`.
public struct SubscriptionID: Sendable, Hashable, CustomStringConvertible {
    /// The raw number, unique within one backend.
    public let rawValue: Int64

    init(rawValue: Int64) { self.rawValue = rawValue }

    public var description: String { "sub#\(rawValue)" }
}
