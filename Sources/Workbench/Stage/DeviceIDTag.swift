import ChatCore
import Foundation

/// Ids a workbench client mints against a server (conversations `c-…`,
/// messages `m-…`) are chosen by the client and shared by every user of
/// that server, so two sessions with the same seed would mint the same ones
/// (and the second user's first send would find the first user's
/// conversation). Against a server, each id therefore carries a random
/// component of the session, then the seeded part:
/// `c-` + 8 random hex digits + 8 seeded ones. The embedded world mints
/// seeded ids only (byte-for-byte deterministic); the recording keeps the
/// session's component (`session.id_tag`), and a replay from the tape
/// mints the recorded ids again with it.
enum DeviceIDTag {
    /// A fresh component: 8 hex digits from the system's random generator.
    static func random() -> String {
        RandomSource.system(idDigits: 8).makeID(prefix: "")
    }

    /// LEGACY, for server sessions recorded before v11 only (which keep no
    /// `session.id_tag`): the component read back from the requests'
    /// paths (`/v1/conversations/c-TAGSEEDED…`); "" for a tape recorded
    /// before ids had one, or with no conversation. It takes the first
    /// conversation path of 16 hex digits, so a conversation the script
    /// named with such an id (`start conversation --id c-0123456789abcdef`)
    /// is mistaken for a minted one; a session recorded since keeps its
    /// tag as the value it was minted with (``RecordedSession/idTag``).
    static func legacyRecorded(inPaths paths: some Sequence<String>) -> String {
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
