// LEGACY: the one place that reads JSON written with Swift's positional
// coding keys. The recording's typed values (AppCall, AppEvent,
// TrafficEntry.Kind) key a case's one unlabelled value by the case's name
// (`{"text":{"text":"hi"}}`); the builds before did not say so, and Swift
// keyed it by position (`{"text":{"_0":"hi"}}`: step.call and event.value
// of the first v6 and v7 builds, traffic.kind of v8 until the case keys
// were named). Such a value is remade here as this build writes it, and
// decoded as any other. Nothing written since is read by it.

import Foundation

enum LegacyPositionalKeys {
    /// `data` remade as this build writes it: each member whose value is
    /// an object with the one key `_0` (`"text":{"_0":"hi"}`) keyed by
    /// the member's name instead (`"text":{"text":"hi"}`), at any depth,
    /// and each object passed through `also` (another legacy remake of
    /// the caller's, which says whether it changed anything). Nil when
    /// nothing in it was remade, or it is not JSON.
    static func remade(_ data: Data, also: (inout [String: Any]) -> Bool = { _ in false }) -> Data? {
        guard let tree = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return nil }
        var found = false
        func remake(_ node: Any) -> Any {
            if let array = node as? [Any] { return array.map(remake) }
            guard var object = node as? [String: Any] else { return node }
            if also(&object) { found = true }
            var out: [String: Any] = [:]
            for (key, value) in object {
                if let fields = value as? [String: Any], let sole = fields["_0"], fields.count == 1 {
                    found = true
                    out[key] = remake([key: sole])
                } else {
                    out[key] = remake(value)
                }
            }
            return out
        }
        let remade = remake(tree)
        guard found else { return nil }
        return try? JSONSerialization.data(withJSONObject: remade, options: [.fragmentsAllowed])
    }
}
