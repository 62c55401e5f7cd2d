import Foundation

// This module is the HTTP API of `chatbench serve` as generated from
// `docs/openapi.json` by swift-openapi-generator's build plugin (this
// folder's `openapi.json` is a link to it; `openapi-generator-config.yaml`
// says what is generated): `Components.Schemas` (the bodies), `Operations`
// (one per operationId), `Client` and `APIProtocol`. A route, parameter or
// field that disagrees with the document does not compile where it is used.

/// Converts a value between a hand-written wire type (ChatCore's) and the
/// generated type of the same JSON, through that JSON: the generated
/// decoder checks what the document says (required fields, no additional
/// properties, enum values), so a value that does not match the document
/// is an error here rather than on the other side.
public enum JSONBridge {
    /// `value` encoded as JSON and decoded as `Target`.
    public static func convert<Target: Decodable>(_ value: some Encodable, to: Target.Type = Target.self) throws -> Target {
        try JSONDecoder().decode(Target.self, from: try JSONEncoder().encode(value))
    }
}
