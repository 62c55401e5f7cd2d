import ChatCore
import Foundation
import Testing

@testable import ChatSDK

/// Whose a traffic entry is, as a value (issue 30): a device, the network
/// or the other side, whatever the device is called.
@Suite struct TrafficOriginTests {
    typealias Origin = TrafficEntry.Origin

    private static let origins: [Origin] = [.device("d-1"), .network, .otherSide, .device("network"), .device("app-backend")]

    /// Its column value and label give it back; the label is what the
    /// listing printed before v12.
    @Test func eachOriginReadsBackFromItsColumns() {
        for origin in Self.origins {
            #expect(Origin(column: origin.column, deviceId: origin.label) == origin)
        }
        #expect(Self.origins.map(\.column) == ["device", "network", "other-side", "device", "device"])
        #expect(Self.origins.map(\.label) == ["d-1", "network", "app-backend", "network", "app-backend"])
        #expect(Self.origins.map(\.deviceId) == ["d-1", nil, nil, "network", "app-backend"])
        #expect(Origin(column: "satellite", deviceId: "d-1") == nil)
    }

    /// LEGACY: before v12 the reserved device ids were the network and the other side.
    @Test func theLegacyReaderReadsTheReservedDeviceIds() {
        #expect(Origin(legacyDeviceId: "network") == .network)
        #expect(Origin(legacyDeviceId: "app-backend") == .otherSide)
        #expect(Origin(legacyDeviceId: "device-alice") == .device("device-alice"))
        #expect(Origin(legacyDeviceId: "") == .device(""))
    }

    /// As JSON (`sessions show --json`): `origin` says whose it is;
    /// `deviceId` is the device's id, or the label on the others.
    @Test func theJSONCarriesTheOrigin() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for origin in Self.origins {
            let entry = TrafficEntry(
                time: .simulationEpoch, origin: origin, channel: .ws, direction: .out, kind: .close, exchange: 1)
            let json = String(decoding: try encoder.encode(entry), as: UTF8.self)
            #expect(json.contains(#""deviceId":"\#(origin.label)""#), "\(json)")
            #expect(json.contains(#""origin":"\#(origin.column)""#), "\(json)")
            #expect(try JSONDecoder().decode(TrafficEntry.self, from: Data(json.utf8)) == entry)
        }
    }

    /// LEGACY: JSON without `origin` (written before it was) is read by the legacy reader.
    @Test func aJSONEntryWithoutAnOriginIsReadByTheLegacyReader() throws {
        func json(_ deviceId: String, origin: String?) throws -> Data {
            let entry = TrafficEntry(time: .simulationEpoch, origin: .device(deviceId), channel: .ws, direction: .out, kind: .close)
            var object = try #require(try JSONSerialization.jsonObject(with: try JSONEncoder().encode(entry)) as? [String: Any])
            object["origin"] = origin
            return try JSONSerialization.data(withJSONObject: object)
        }
        func decoded(_ deviceId: String) throws -> Origin {
            try JSONDecoder().decode(TrafficEntry.self, from: try json(deviceId, origin: nil)).origin
        }
        #expect(try decoded("network") == .network)
        #expect(try decoded("app-backend") == .otherSide)
        #expect(try decoded("d-1") == .device("d-1"))
        let unknown = try json("d", origin: "moon")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(TrafficEntry.self, from: unknown) }
    }
}
