import ChatCore
import ChatSDK
import ChatSimulation
import ChatTestSupport
import Foundation
import Testing

@testable import Workbench

/// An app chooses its device id, and one called `network` or `app-backend`
/// is still a device (issue 30): its field recording's requests are its
/// client's requests, on its client's lane, drawn and listed as its own,
/// never the network's faults or the other side's calls. Before v12 the
/// readers told those apart by these two device ids.
@Suite struct FieldDeviceNamedLikeAnOriginTests {
    static let reservedLooking = ["network", "app-backend"]
    static let send = "POST /v1/conversations/c-named/messages"

    /// An app on device `deviceId` that sends a message, recorded by its
    /// flight recorder and read back: the file's session, calls and traffic.
    static func record(deviceId: String, into folder: TemporaryFolder) throws -> (RecordedSession, [RecordedStep], [RecordedTraffic]) {
        let world = try World(seed: 1)
        let app = FieldApp(world: world, deviceId: deviceId, appName: "Named 1.0", in: folder)
        let client = app.client
        try app.call { try await client.setCurrentUser(userId: "alice") }
        try app.call { try await client.startConversation(id: "c-named", title: nil) }
        try app.call { try await client.sendMessage(.text("hi"), in: "c-named") }
        try app.call { await client.shutdown() }
        return try FieldExportTests.load(try app.export())
    }

    /// The sequence view puts its requests on its client's lane, as requests.
    @Test(arguments: reservedLooking) func itsRequestsAreOnItsClientsLane(_ deviceId: String) throws {
        let folder = try TemporaryFolder()
        let (session, steps, traffic) = try Self.record(deviceId: deviceId, into: folder)
        #expect(traffic.contains { $0.entry.summary == Self.send })
        let view = SequenceView(session: session, steps: steps, traffic: traffic)
        let items = view.bands.flatMap(\.items)
        let clients = Set(view.lanes.indices.filter { view.lanes[$0].role == .client })
        let sent = try #require(items.first { $0.label == Self.send })
        #expect(sent.kind == .request)
        #expect(clients.contains(sent.from))
        #expect(sent.answer == "ok sent")
        #expect(!items.contains { $0.kind == .fault || $0.kind == .call })
        #expect(!items.contains { view.lanes[$0.from].role != .client && $0.kind == .request })
    }

    /// The text timeline draws its requests as arrows to the server labelled
    /// with its id, and no network row; the tape listing keeps its id.
    @Test(arguments: reservedLooking) func itsRequestsAreDrawnAndListedAsItsOwn(_ deviceId: String) throws {
        let folder = try TemporaryFolder()
        let (session, steps, traffic) = try Self.record(deviceId: deviceId, into: folder)
        let lines = Timeline.draw(session, steps: steps, traffic: traffic)
        #expect(!lines.contains { $0.contains("⚡") }, "\(lines.joined(separator: "\n"))")
        #expect(lines.contains { $0.contains(" \(Self.send) ") && $0.hasSuffix("▶│ \(deviceId)") }, "\(lines.joined(separator: "\n"))")
        let listing = TrafficListing.lines(session, steps: steps, traffic: traffic)
        #expect(listing.contains { $0.hasSuffix("  \(deviceId)  http → \(Self.send)") }, "\(listing.joined(separator: "\n"))")
    }
}
