import Testing

@testable import Workbench

/// An event stream refused for a revoked token ends the session with its
/// reason, as a refused request does: no loop (it was opened again with the
/// revoked token, with back-off, until a request or the proactive refresh an
/// hour later noticed: 34 openings in ten minutes, 165 in that hour).
@Suite struct RevokedTokenTests {
    @Test func aRefusedOpeningEndsTheSessionInsteadOfRetryingForEver() throws {
        let session = try WorkbenchSession(options: WorkbenchOptions())
        for line in ["user set alice", "watch conversations", "token revoke"] { _ = session.execute(line) }
        let later = session.execute("clock advance 10m").output
        let openings = later.split(separator: "\n").filter { $0.hasSuffix("client.connection → connecting") }
        #expect(openings.count == 1, "\(later)")
        #expect(later.contains("client.session → closed(invalidToken)"), "\(later)")
        #expect(session.execute("expect client.session == closed").output.hasPrefix("ok"))
    }
}
