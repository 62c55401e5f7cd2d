import Foundation

/// Converts a value between a hand-written wire type (ChatCore's) and the
/// type generated from docs/openapi.json for the same JSON, through that
/// JSON (ChatSDKNetwork's client and ChatServer's operations are generated
/// from the document). The generated decoder checks what the document says
/// (required fields, no additional properties, enum values), so a value
/// that does not match it is an error here rather than on the other side.
package enum JSONBridge {
    /// `value` encoded as JSON and decoded as `Target`.
    package static func convert<Target: Decodable>(_ value: some Encodable, to: Target.Type = Target.self) throws -> Target {
        try JSONDecoder().decode(Target.self, from: try JSONEncoder().encode(value))
    }
}
