import ChatCore
import ChatSimulation
import ChatTestSupport
import Synchronization
import Testing

/// The three kinds of wake-up and who may move the clock to each.
@Suite(.serialized) struct WakeUpKindTests {
    /// The wake-ups that fired, by name.
    typealias Fired = Locked<[String]>

    func world(_ schedule: (Scheduler, Fired) -> Void) throws -> (World, Fired) {
        let world = try World(seed: 1)
        let fired = Fired([])
        schedule(world.scheduler, fired)
        return (world, fired)
    }

    @Test func runUntilIdleRunsOnlyInFlightWork() throws {
        let (world, fired) = try world { scheduler, fired in
            let now = scheduler.now
            scheduler.schedule(at: now + .milliseconds(40), kind: .inFlight("request")) { fired.append("request") }
            scheduler.schedule(at: now + .seconds(2), kind: .recovery("back-off")) { fired.append("back-off") }
            scheduler.schedule(at: now + .seconds(600), kind: .lifecycle("refresh")) { fired.append("refresh") }
        }
        let start = world.now
        world.runUntilIdle()
        #expect(fired.value == ["request"])
        #expect(world.now - start == .milliseconds(40))
    }

    @Test func settleRunsRecoveryButNeverMovesTheClockForLifecycle() throws {
        let (world, fired) = try world { scheduler, fired in
            let now = scheduler.now
            scheduler.schedule(at: now + .milliseconds(1400), kind: .recovery("reconnect after back-off")) { fired.append("back-off") }
            scheduler.schedule(at: now + .seconds(600), kind: .lifecycle("refresh alice's tokens")) { fired.append("refresh") }
            scheduler.schedule(at: now + .seconds(6), kind: .lifecycle("typing lapses")) { fired.append("typing") }
        }
        let start = world.now
        let reasons = world.settle()
        #expect(fired.value == ["back-off"])
        #expect(reasons == ["reconnect after back-off"])
        #expect(world.now - start == .milliseconds(1400))
        #expect(world.scheduler.pending.map(\.kind.purpose) == ["typing lapses", "refresh alice's tokens"])
    }

    @Test func settleFiresLifecycleTimersItPassesOnTheWay() throws {
        let (world, fired) = try world { scheduler, fired in
            let now = scheduler.now
            scheduler.schedule(at: now + .seconds(1), kind: .lifecycle("typing lapses")) { fired.append("typing") }
            scheduler.schedule(at: now + .seconds(4), kind: .recovery("retry")) { fired.append("retry") }
        }
        world.settle()
        #expect(fired.value == ["typing", "retry"])
    }

    @Test func settleWithNothingToDoLeavesTheClock() throws {
        let (world, fired) = try world { scheduler, fired in
            scheduler.schedule(at: scheduler.now + .seconds(3000), kind: .lifecycle("expiry")) { fired.append("expiry") }
        }
        let start = world.now
        #expect(world.settle().isEmpty)
        #expect(world.now == start)
        #expect(fired.value.isEmpty)
    }

    @Test func settleIsBoundedByItsLimit() throws {
        let world = try World(seed: 1)
        let count = Mutex(0)
        // A recovery that always comes back: settle must still end.
        @Sendable func again() {
            count.withLock { $0 += 1 }
            world.scheduler.schedule(at: world.now + .seconds(30), kind: .recovery("retry")) { again() }
        }
        world.scheduler.schedule(at: world.now + .seconds(30), kind: .recovery("retry")) { again() }
        let start = world.now
        world.settle(limit: .seconds(300))
        #expect(world.now - start == .seconds(300))
        #expect(count.withLock { $0 } == 10)
    }

    @Test func stepFiresAnyKindUpToItsDeadlineOnly() throws {
        let (world, fired) = try world { scheduler, fired in
            scheduler.schedule(at: scheduler.now + .seconds(600), kind: .lifecycle("refresh")) { fired.append("refresh") }
        }
        let start = world.now
        #expect(!world.step(until: start + .seconds(599)))
        #expect(world.step(until: start + .seconds(600)))
        #expect(fired.value == ["refresh"])
    }

    @Test func anInterruptionStopsTheWorldWhereItIs() throws {
        let interruption = Interruption()
        let world = try World(seed: 1, interruption: interruption)
        let count = Mutex(0)
        // In-flight work that never ends: only an interruption stops it.
        @Sendable func forever() {
            let n = count.withLock {
                $0 += 1
                return $0
            }
            if n == 50 { interruption.request() }
            world.scheduler.schedule(at: world.now + .milliseconds(10), kind: .inFlight) { forever() }
        }
        world.scheduler.schedule(at: world.now, kind: .inFlight) { forever() }
        world.runUntilIdle()
        #expect(interruption.clear())
        #expect(count.withLock { $0 } == 50)
        #expect(!interruption.isRequested)
    }

    /// Where a replay stops a step Ctrl-C stopped: what is due before the
    /// instant fires; at it, only the wake-up that moved the clock there
    /// (its work waits, as Ctrl-C lands between jobs), or all of them; later
    /// ones wait, and the clock stands at the instant.
    @Test func theClockStopsWhereAnInterruptedStepStopped() throws {
        for firingAll in [false, true] {
            let interruption = Interruption()
            let world = try World(seed: 1, interruption: interruption)
            let fired = Fired([])
            let start = world.now
            for (name, ms) in [("before", 10), ("at 1", 20), ("at 2", 20), ("after", 30)] {
                world.scheduler.schedule(at: start + .milliseconds(ms), kind: .lifecycle(name)) { fired.append(name) }
            }
            world.interrupt(at: start + .milliseconds(20), firingAll: firingAll)
            world.advance(by: .seconds(3600))
            #expect(interruption.clear())
            #expect(fired.value == (firingAll ? ["before", "at 1", "at 2"] : ["before", "at 1"]))
            #expect(world.now == start + .milliseconds(20))
            world.removeInterruptionPoint()
            world.advance(by: .milliseconds(10))
            #expect(fired.value.suffix(1) == ["after"])
            #expect(!interruption.isRequested)
        }
    }

    @Test func kindsDescribeThemselves() {
        #expect(WaitKind.recovery("reconnect after back-off").description == "recovery: reconnect after back-off")
        #expect(WaitKind.inFlight.category == .inFlight)
    }

    /// A burst of wake-ups leaves no room for itself once it has fired:
    /// the queue used to keep a buffer as large as the biggest burst.
    @Test func aBurstLeavesNoBufferBehind() throws {
        let (world, fired) = try world { scheduler, fired in
            let now = scheduler.now
            for n in 0..<20_000 { scheduler.schedule(at: now + .milliseconds(Int64(n % 50)), kind: .inFlight("event")) {} }
            scheduler.schedule(at: now + .milliseconds(60), kind: .inFlight("last")) { fired.append("last") }
        }
        #expect(world.scheduler.capacity >= 20_001)
        world.runUntilIdle()
        #expect(fired.value == ["last"])
        #expect(world.scheduler.capacity <= Scheduler.keptCapacity)
    }
}
