import Testing

@testable import Workbench

/// Against a server, how long `wait` and `settle` took is real time and is
/// not compared; every duration `Format.duration` writes must be recognised
/// (issue 30: `settled after 2.118s` was compared as `[..].118s`).
@Suite struct ServerConformanceTests {
    @Test(arguments: [
        ("settled after 858ms", "settled after [..]"),
        ("settled after 2.118s", "settled after [..]"),
        ("settled after 2h34m0.947s (reconnection)", "settled after [..] (reconnection)"),
        ("waited 1d 1h30m for m1 to be sent", "waited [..] for m1 to be sent"),
        ("waited 0s for m1 to be sent", "waited [..] for m1 to be sent"),
        ("waited for nothing", "waited for nothing"),
    ])
    func waitsCompareWithoutTheirDuration(line: String, expected: String) {
        #expect(ServerConformance.normalizingWaits(line) == expected)
        #expect(ServerConformance.normalizingWaits(Format.duration(milliseconds: 2_118)) == Format.duration(milliseconds: 2_118))
    }
}
