/// Identifies a realtime subscription made with `Backend.subscribe`, so that
/// it can be ended with `Backend.unsubscribe`.
package struct SubscriptionID: Sendable, Hashable, CustomStringConvertible {
    /// The raw number, unique within one backend.
    package let rawValue: Int64

    init(rawValue: Int64) { self.rawValue = rawValue }

    package var description: String { "sub#\(rawValue)" }
}
