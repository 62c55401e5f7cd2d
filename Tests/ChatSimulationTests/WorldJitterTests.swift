import ChatCore
import ChatSimulation
import Testing

/// The world's jitter comes from streams of its own (issue 31, W4): a
/// release build may run work ready at one virtual instant in another order
/// than a debug build, and a jitter drawn from the identifiers' sequence
/// then moved with it.
@Suite struct WorldJitterTests {
    /// Each client's jitter stream is the n-th made, whatever was drawn
    /// before: identifiers and the other clients' jitter do not move it.
    @Test func aClientsJitterDoesNotDependOnOtherDraws() throws {
        let quiet = try World(seed: 5)
        let phoneQuiet = quiet.makeJitterSource()
        let tabletQuiet = quiet.makeJitterSource()
        let expected = (phone: (0..<3).map { _ in phoneQuiet.fraction() }, tablet: (0..<3).map { _ in tabletQuiet.fraction() })

        let busy = try World(seed: 5)
        let phone = busy.makeJitterSource()
        let tablet = busy.makeJitterSource()
        // Another order, with identifiers drawn in between.
        let tabletFirst = (0..<3).map { _ in
            _ = busy.random.makeID(prefix: "m-")
            return tablet.fraction()
        }
        #expect(tabletFirst == expected.tablet)
        #expect((0..<3).map { _ in phone.fraction() } == expected.phone)
        #expect(expected.phone != expected.tablet, "two clients, two streams")
    }

    /// Identifiers do not depend on how much jitter was drawn.
    @Test func identifiersDoNotDependOnJitter() throws {
        let quiet = try World(seed: 5)
        let ids = (0..<3).map { _ in quiet.random.makeID(prefix: "m-") }
        let busy = try World(seed: 5)
        let jitter = busy.makeJitterSource()
        let drawn = (0..<3).map { _ in
            _ = jitter.fraction()
            return busy.random.makeID(prefix: "m-")
        }
        #expect(drawn == ids)
    }
}
