import ChatCore
import Foundation
import Testing

/// C4: a device of the app routes, with its push token.
@Suite struct AppDeviceTests {
    @Test func aDeviceIsWrittenWithItsTokenAndReadBackEitherWay() throws {
        let devices = [HTTPWire.AppDevice(deviceId: "phone", pushToken: "apns-1"), HTTPWire.AppDevice(deviceId: "tablet")]
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(devices)
        #expect(String(decoding: data, as: UTF8.self) == #"[{"deviceId":"phone","pushToken":"apns-1"},{"deviceId":"tablet"}]"#)
        #expect(try JSONDecoder().decode([HTTPWire.AppDevice].self, from: data) == devices)
        // Tapes recorded before devices carried tokens hold bare ids.
        #expect(
            try JSONDecoder().decode([HTTPWire.AppDevice].self, from: Data(#"["phone"]"#.utf8)) == [HTTPWire.AppDevice(deviceId: "phone")])
    }
}
