import ChatCore
import ChatSDK
import ChatSimulation
import Synchronization
import Testing

/// Each device's own link (issue 29): offline, latency and failures for one
/// device, the others untouched; the network's own state over them all.
@Suite struct DeviceLinkTests {
    @Test func aDeviceOfflineLeavesTheOthersOnline() throws {
        let conditions = NetworkConditions(latency: .milliseconds(20))
        conditions.setOnline(false, device: "tablet")
        #expect(conditions.isOnline)
        #expect(!conditions.isOnline(device: "tablet"))
        #expect(conditions.isOnline(device: "phone"))
        #expect(throws: TransportError.self) { try conditions.checkOnline(device: "tablet") }
        try conditions.checkOnline(device: "phone")
        // The network offline takes every device with it; back online, the
        // tablet's own link is still down.
        conditions.setOnline(false)
        #expect(!conditions.isOnline(device: "phone"))
        conditions.setOnline(true)
        #expect(!conditions.isOnline(device: "tablet"))
        conditions.setOnline(true, device: "tablet")
        #expect(conditions.isOnline(device: "tablet"))
    }

    @Test func aDevicesLatencyAndFailuresAreItsOwn() {
        let conditions = NetworkConditions(latency: .milliseconds(20))
        conditions.setLatency(.milliseconds(400), device: "tablet")
        #expect(conditions.latency(device: "tablet") == .milliseconds(400))
        #expect(conditions.latency(device: "phone") == .milliseconds(20))
        conditions.failNext(1, kind: .refused, device: "tablet")
        conditions.failNext(1, kind: .timeout)
        #expect(conditions.pendingFailures == 2)
        #expect(conditions.consumeFailure(device: "phone") == .timeout)
        #expect(conditions.consumeFailure(device: "phone") == nil)
        #expect(conditions.consumeFailure(device: "tablet") == .refused)
        #expect(conditions.pendingFailures == 0)
    }

    @Test func cuttingADeviceCutsOnlyItsConnectionsAndTellsOnlyItsListeners() async {
        let conditions = NetworkConditions(latency: .zero)
        let cut = Mutex<[Int]>([])
        let phone = conditions.register(device: "phone") { id, _ in cut.withLock { $0.append(id) } }
        let tablet = conditions.register(device: "tablet") { id, _ in cut.withLock { $0.append(id) } }
        var phoneHears = conditions.reachability(device: "phone").makeAsyncIterator()
        var tabletHears = conditions.reachability(device: "tablet").makeAsyncIterator()
        #expect(await phoneHears.next() == true)
        #expect(await tabletHears.next() == true)
        conditions.setOnline(false, device: "tablet")
        #expect(cut.withLock { $0 } == [tablet])
        #expect(conditions.openConnections(device: "phone") == 1)
        #expect(await tabletHears.next() == false)
        conditions.dropConnections(device: "phone")
        #expect(cut.withLock { $0 } == [tablet, phone])
        conditions.setOnline(true, device: "tablet")
        #expect(await tabletHears.next() == true)
        // The phone heard nothing: its reachability never changed.
        conditions.setOnline(false)
        #expect(await phoneHears.next() == false)
    }
}
