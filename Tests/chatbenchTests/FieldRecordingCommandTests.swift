import ChatTestSupport
import Foundation
import GRDB
import Testing

/// `chatbench replay FILE` and `chatbench export FILE OUT` on an app's field
/// recording, through the built binary (issue 27 §3, §4): what a support
/// engineer types and reads.
@Suite struct FieldRecordingCommandTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples")
    static let fixture = examples.appendingPathComponent("field/support-ticket.sqlite").path

    @Test func theRepositorysRecordingReplaysIdentically() throws {
        let run = try ChatbenchBinary.run(["replay", Self.fixture])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(
            run.stdout.hasPrefix(
                "session 1 \"Acme Shop 3.2 (iOS)\": 8 steps replayed from the tape, identical (41.135s of virtual time in "),
            "\(run.stdout)")
    }

    @Test func aTamperedCopyDivergesWhereTheDeviceSawOtherwise() throws {
        let folder = try TemporaryFolder()
        let copy = folder.url.appendingPathComponent("ticket.sqlite").path
        try FileManager.default.copyItem(atPath: Self.fixture, toPath: copy)
        let queue = try DatabaseQueue(path: copy)
        try queue.write { db in
            try db.execute(
                sql:
                    #"UPDATE event SET text = 'm-ee42c90b: failed "Hello?"', value = json_set(value, '$.message.state', 'failed') WHERE text = 'm-ee42c90b: sent "Hello?"'"#
            )
        }
        try queue.close()
        let run = try ChatbenchBinary.run(["replay", copy])
        #expect(run.status == 1)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == #"session 1 "Acme Shop 3.2 (iOS)" diverged at step 6: > sendMessage(.text("Hello?"), in: "order-4711")"#)
        #expect(lines.contains("--- on the device"))
        #expect(lines.contains(#"- m-ee42c90b: failed "Hello?""#))
        #expect(lines.contains(#"+ m-ee42c90b: sent "Hello?""#))
        let update = try ChatbenchBinary.run(["replay", copy, "--update"])
        #expect(update.status == 2)
        #expect(update.stderr.contains("field recording: --update cannot re-record it"))
    }

    @Test func theExportRunsAsATest() throws {
        let folder = try TemporaryFolder()
        let out = folder.url.appendingPathComponent("ticket.chat").path
        let export = try ChatbenchBinary.run(["export", Self.fixture, out])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stderr == "")
        // examples/65 is the same export, made from the repository's relative path.
        let written = try String(contentsOfFile: out, encoding: .utf8)
        let example = try String(
            contentsOfFile: Self.examples.appendingPathComponent("65-field-ticket-as-a-test.chat").path, encoding: .utf8)
        #expect(
            written
                == example.replacingOccurrences(of: "export examples/field/support-ticket.sqlite FILE", with: "export \(Self.fixture) FILE")
        )
        let test = try ChatbenchBinary.run(["test", out])
        #expect(test.status == 0)
        #expect(test.stdout.hasSuffix("1 passed, 0 failed\n"), "\(test.stdout)")
        let missing = try ChatbenchBinary.run(["export", folder.url.appendingPathComponent("no-such.sqlite").path, out + "2"])
        #expect(missing.status == 2)
        // One line of error.
        #expect(missing.stderr.hasPrefix("chatbench: no recording file at "))
        #expect(missing.stderr.filter { $0 == "\n" }.count == 1)
    }
}
