import Foundation
import Testing

@testable import Workbench

/// Shrink on a corpus of planted failures (issue 29 §4), each kept in
/// `ShrinkCorpus/` with the hand-written minimal script that fails the same
/// way: the shrunk script fails as the hand-written one does and is at most
/// 1.2 times its length. (Its time is not asserted: hosts differ; `chatbench
/// shrink` prints it.)
@Suite struct ShrinkCorpusTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("ShrinkCorpus")

    static let names: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.filter { $0.hasSuffix(".minimal.chat") }.map { String($0.dropLast(".minimal.chat".count)) }.sorted()
    }()

    static func lines(_ file: String) throws -> [String] {
        try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8).split(separator: "\n").map(String.init)
            .filter { !$0.hasPrefix("#") }
    }

    @Test func theCorpusHasTenOrMore() {
        #expect(Self.names.count >= 10, "\(Self.names)")
    }

    @Test(arguments: names) func shrinksToNearTheHandWrittenScript(_ name: String) throws {
        let padded = try Self.lines("\(name).chat")
        let minimal = try Self.lines("\(name).minimal.chat")
        let expected = try #require(Explorer.signature(of: try Explorer.check(minimal, seed: 1)), "\(name).minimal.chat does not fail")
        let result = try #require(try Shrinker().shrink(padded), "\(name).chat does not fail")
        #expect(result.signature == expected, "\(name): \(result.signature)")
        #expect(Double(result.lines.count) <= 1.2 * Double(minimal.count), "\(name): \(result.lines)")
        #expect(padded.count >= 2 * minimal.count, "\(name) is padded")
    }
}
