import ChatCore
import Foundation
import Testing

@testable import ChatSDK
@testable import Workbench

/// The embedded world records what crosses its simulated network, at the
/// transport boundary: requests with their answers (lost ones too),
/// realtime frames both ways, and the network's faults.
@Suite struct EmbeddedTrafficTests {
    static let script = [
        "user set alice", "start conversation", "send c1 text \"one\"", "watch items c1", "agent say c1 \"hello\"",
        "net fail 1", "send c1 text \"two\"", "net offline", "send c1 text \"three\"", "net online", "app restart", "net drop",
        "clock advance 2s",
    ]

    private func run() throws -> [(input: String, traffic: [TrafficEntry])] {
        let session = try WorkbenchSession(options: WorkbenchOptions())
        return Self.script.map { ($0, session.execute($0).traffic) }
    }

    private func rows(_ entries: [TrafficEntry]) -> [String] {
        entries.map { "\($0.origin.label) \($0.channel.rawValue) \($0.direction.rawValue) \($0.summary)" }
    }

    /// A session nobody records (`--no-record`) collects no traffic, and
    /// prints the same: the output does not depend on it.
    @Test func aSessionThatCapturesNothingCollectsNothing() throws {
        let quiet = try WorkbenchSession(options: WorkbenchOptions())
        quiet.capturesTraffic = false
        let recorded = try WorkbenchSession(options: WorkbenchOptions())
        for line in Self.script {
            let (plain, captured) = (quiet.execute(line), recorded.execute(line))
            #expect(plain.traffic.isEmpty, "\(line)")
            #expect(plain.output == captured.output, "\(line)")
        }
        #expect(recorded.capturesTraffic)
    }

    @Test func eachStepCarriesWhatCrossed() throws {
        let steps = try run()
        let send = rows(steps[2].traffic)
        #expect(send.contains("device-client http out POST /v1/conversations/c-89025cc1/messages"), "\(send)")
        #expect(send.contains("device-client http in ok sent"))
        #expect(send.contains("device-client ws out open after=-"))
        #expect(send.contains("device-client ws in ready"))
        // The agent's message pushed to the client.
        #expect(rows(steps[4].traffic).contains { $0.hasPrefix("device-client ws in event #") && $0.hasSuffix(" messageCreated") })
        // `net fail 1`: the request is lost on the way.
        #expect(rows(steps[5].traffic) == ["network http out fail next 1"])
        #expect(rows(steps[6].traffic).contains("device-client http in error failed"))
        let offline = rows(steps[7].traffic)
        #expect(offline.first == "network http out offline")
        #expect(offline.contains("device-client ws in closed: network offline"))
        // An offline device sends nothing: the message waits.
        #expect(rows(steps[8].traffic).isEmpty)
        #expect(rows(steps[9].traffic).first == "network http out online")
        #expect(rows(steps[10].traffic).first == "network http out restart device-client")
        #expect(rows(steps[11].traffic).first == "network http out drop")
        // Answers share their request's exchange number, per device.
        let request = steps[2].traffic.first { $0.channel == .http && $0.direction == .out }
        let answer = steps[2].traffic.first { $0.channel == .http && $0.direction == .in }
        #expect(request?.exchange != nil && request?.exchange == answer?.exchange)
        #expect(answer.map { $0.time > request!.time } == true)
    }

    @Test func theSameScriptRecordsTheSameTraffic() throws {
        let first = try run().map(\.traffic)
        let second = try run().map(\.traffic)
        #expect(first == second)
    }
}
