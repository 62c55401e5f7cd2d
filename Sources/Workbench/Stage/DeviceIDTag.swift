import ChatCore
import Foundation

/// Ids a workbench client mints against a server (conversations `c-…`,
/// messages `m-…`) are chosen by the client and shared by every user of
/// that server, so two sessions with the same seed would mint the same ones
/// (and the second user's first send would find the first user's
/// conversation). Against a server, each id therefore carries a random
/// component of the session, then the seeded part:
/// `c-` + 8 random hex digits + 8 seeded ones. The embedded world mints
/// seeded ids only (byte-for-byte deterministic); a replay from the tape
/// finds the recorded session's component on the tape and mints the
/// recorded ids again.
enum DeviceIDTag {
    /// A fresh component: 8 hex digits from the system's random generator.
    static func random() -> String {
        RandomSource.system(idDigits: 8).makeID(prefix: "")
    }

    /// The component of the ids a recorded session minted: read from the
    /// requests' paths (`/v1/conversations/c-TAGSEEDED…`, the wire's
    /// own URLs); "" for a tape recorded before ids had one, or with no
    /// conversation.
    static func recorded(inPaths paths: some Sequence<String>) -> String {
        let pattern = #"/v1/conversations/c-([0-9a-f]{8})[0-9a-f]{8}(?![0-9a-f])"#
        for path in paths {
            if let match = path.range(of: pattern, options: .regularExpression) {
                let id = path[match].dropFirst("/v1/conversations/c-".count)
                return String(id.prefix(8))
            }
        }
        return ""
    }
}
