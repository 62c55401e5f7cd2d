import ChatTestSupport
import Foundation
import Testing

@testable import Workbench

@Suite struct TranscriptParsingTests {
    @Test func aFileWithoutInputsIsAPlainScript() throws {
        let parsed = try Transcript.parse("# a comment\nuser set alice\n\nclock\n", path: "s.chat")
        #expect(parsed.kind == .script)
        #expect(parsed.blocks.map(\.input) == ["# a comment", "user set alice", "", "clock"])
        #expect(parsed.seed == nil)
    }

    @Test func inputsAndExpectedOutput() throws {
        let text = "# seed: 7\n# about it\n\n> user set alice\nuser alice set\n  [..] userSet(alice)\n\n> clock\nclock [..]\n"
        let parsed = try Transcript.parse(text, path: "t.chat")
        #expect(parsed.kind == .transcript)
        #expect(parsed.seed == 7)
        #expect(parsed.header == ["# seed: 7", "# about it", ""])
        #expect(parsed.blocks.map(\.input) == ["user set alice", "clock"])
        #expect(parsed.blocks[0].expected == ["user alice set", "  [..] userSet(alice)"])
        #expect(parsed.blocks[0].trailingBlankLines == 1)
        #expect(parsed.blocks[0].line == 4)
        #expect(parsed.rendered() == text)
    }

    @Test func textBeforeTheFirstInputIsMalformed() {
        #expect {
            try Transcript.parse("user set alice\n> clock\n", path: "bad.chat")
        } throws: { error in
            (error as? TranscriptError)?.message
                == "bad.chat:1: \"user set alice\" comes before the first `> ` input: in a transcript, only comments (# …) and blank lines may come first"
        }
    }

    @Test func anInputWithNoCommandIsMalformed() {
        #expect {
            try Transcript.parse("> clock\nclock [..]\n>\n", path: "bad.chat")
        } throws: { error in
            (error as? TranscriptError)?.message == "bad.chat:3: `>` with no command: write `> COMMAND`, or remove the line"
        }
    }

    @Test func aBadRegularExpressionIsMalformed() {
        #expect {
            try Transcript.parse("> clock\nclock ([a-z (re)\n", path: "bad.chat")
        } throws: { error in
            (error as? TranscriptError)?.message.hasPrefix("bad.chat:2: bad regular expression before ` (re)`") == true
        }
    }

    @Test func aBadSeedIsMalformed() {
        #expect {
            try Transcript.parse("# seed: many\n> clock\n", path: "bad.chat")
        } throws: { error in
            (error as? TranscriptError)?.message == "bad.chat:1: `# seed:` needs a whole number, got \"many\""
        }
    }

    @Test func anUnreadableFileIsAnError() {
        #expect(throws: TranscriptError.self) { try Transcript.load(path: "/nonexistent/x.chat") }
    }
}

@Suite struct TranscriptMatcherTests {
    @Test func exactLines() {
        let matcher = TranscriptMatcher()
        #expect(matcher.matches(expected: ["a", "b"], actual: ["a", "b"]))
        #expect(!matcher.matches(expected: ["a", "b"], actual: ["a", "c"]))
        #expect(!matcher.matches(expected: ["a"], actual: ["a", "b"]))
    }

    @Test func anyTextWithinALine() {
        let matcher = TranscriptMatcher()
        #expect(matcher.lineMatches("clock [..] since start)", "clock 2026-01-01T01:00:00.117Z (1h since start)"))
        #expect(matcher.lineMatches("[..]", ""))
        #expect(matcher.lineMatches("a[..]b[..]c", "a-b-b-c"))
        #expect(!matcher.lineMatches("a[..]b[..]c", "a-c-b"))
        #expect(!matcher.lineMatches("ab[..]ba", "aba"))
    }

    @Test func anyLines() {
        let matcher = TranscriptMatcher()
        #expect(matcher.matches(expected: ["a", "...", "z"], actual: ["a", "z"]))
        #expect(matcher.matches(expected: ["a", "...", "z"], actual: ["a", "b", "c", "z"]))
        #expect(matcher.matches(expected: ["..."], actual: []))
        #expect(!matcher.matches(expected: ["a", "...", "z"], actual: ["a", "b"]))
        #expect(matcher.matches(expected: ["...", "x", "..."], actual: ["a", "x", "b"]))
    }

    @Test func regularExpressions() {
        let matcher = TranscriptMatcher()
        #expect(matcher.lineMatches("m[0-9]+ = text message (re)", "m12 = text message"))
        #expect(!matcher.lineMatches("m[0-9]+ (re)", "m12 = text message")) // the whole line
        #expect(!matcher.lineMatches("m[0-9]+ (re)", "xm1"))
    }

    @Test(arguments: ["> quoted run line", "...", "literally (re)", "a [..] b", ">"])
    func outputThatLooksLikeSyntaxIsWrittenAsAnExactPattern(line: String) throws {
        let written = Transcript.expectedLine(for: line)
        #expect(!written.hasPrefix("> "))
        let matcher = TranscriptMatcher()
        #expect(matcher.lineMatches(written, line))
        #expect(!matcher.lineMatches(written, line + "x"))
        let parsed = try Transcript.parse("> clock\n\(written)\n", path: "t.chat")
        #expect(parsed.blocks.count == 1)
    }
}

@Suite struct TranscriptRunnerTests {
    private func file(_ text: String, name: String = "t.chat", in folder: TemporaryFolder) throws -> String {
        let path = folder.url.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aMatchingTranscriptPasses() throws {
        let folder = try TemporaryFolder()
        let path = try file(
            """
            # seed: 3
            > user set alice
            user alice set on client (no request)
              [..] client.session → userSet(alice)
            > clock
            2026-01-01T00:00:00\\.000Z \\([0-9a-z]+ since start\\) (re)
            > expect client.user == alice
            ok: [..]

            """, in: folder)
        let result = TranscriptRunner.run(path: path)
        #expect(result.passed, "\(result.failures)")
        #expect(result.kind == .transcript)
        #expect(result.output.hasPrefix("> user set alice\nuser alice set on client (no request)\n"))
    }

    @Test func aDifferenceIsADiffAnnotatedWithTheInput() throws {
        let folder = try TemporaryFolder()
        let path = try file("> user set alice\nuser bob set on client (no request)\n  [..]\n> clock\n[..]\n", in: folder)
        let result = TranscriptRunner.run(path: path)
        #expect(!result.passed)
        let report = TranscriptRunner.report(result)
        #expect(
            report.text
                == [
                    "FAIL \(path)",
                    "  line 1: > user set alice",
                    "    - user bob set on client (no request)",
                    "    + user alice set on client (no request)",
                    "        [00:00:00.000] client.session → userSet(alice)",
                ].map { $0 + "\n" }.joined())
        // What each line is, said where it was made (issue 30): the context stays plain.
        #expect(
            report.styledParts.map { "\($0.style): \($0.text)" } == [
                "failure: FAIL \(path)",
                "removed:     - user bob set on client (no request)",
                "added:     + user alice set on client (no request)",
            ])
        #expect(
            result.updatedText
                == "> user set alice\nuser alice set on client (no request)\n  [00:00:00.000] client.session → userSet(alice)\n> clock\n[..]\n"
        )
    }

    /// `--update` never blesses a failing expect (issue 30): the file keeps
    /// its expectation for that step, and the result says an expect failed.
    @Test func anUpdateKeepsTheExpectationOfAFailingExpect() throws {
        let folder = try TemporaryFolder()
        let path = try file("> user set alice\nwrong\n> expect client.user == bob\nok: client.user == bob\n", in: folder)
        let result = TranscriptRunner.run(path: path)
        #expect(!result.passed && result.expectFailed)
        #expect(
            result.updatedText
                == "> user set alice\nuser alice set on client (no request)\n  [00:00:00.000] client.session → userSet(alice)\n"
                + "> expect client.user == bob\nok: client.user == bob\n")
    }

    @Test func aFailingExpectFailsATranscriptEvenWhenTheOutputMatches() throws {
        let folder = try TemporaryFolder()
        let path = try file("> expect client.user == alice\n...\n", in: folder)
        let result = TranscriptRunner.run(path: path)
        #expect(!result.passed)
        #expect(result.failures.first == "  line 1: > expect client.user == alice")
    }

    @Test func aScriptPassesWhenItsExpectsHold() throws {
        let folder = try TemporaryFolder()
        let good = try file("user set alice\nexpect client.user == alice\n", name: "good.chat", in: folder)
        let bad = try file("user set alice\nexpect client.user == bob\nsned c1\n", name: "bad.chat", in: folder)
        #expect(TranscriptRunner.run(path: good).passed)
        let result = TranscriptRunner.run(path: bad)
        #expect(!result.passed)
        #expect(result.failures.filter { $0.hasPrefix("  line ") } == ["  line 2: > expect client.user == bob", "  line 3: > sned c1"])
    }

    @Test func foldersAreSearchedRecursivelyAndSorted() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("sub"), withIntermediateDirectories: true)
        _ = try file("clock\n", name: "b.chat", in: folder)
        _ = try file("clock\n", name: "sub/a.chat", in: folder)
        _ = try file("not a test\n", name: "notes.txt", in: folder)
        let files = try TranscriptRunner.files(in: [folder.url.path])
        #expect(files.map { $0.replacingOccurrences(of: folder.url.path + "/", with: "") } == ["b.chat", "sub/a.chat"])
    }

    /// A folder named through a symbolic link (a checkout's `examples`
    /// linked into a scratch folder) is searched as the folder it links to;
    /// its files keep the linked name. Foundation's enumerator found none.
    @Test func aFolderNamedThroughALinkIsTheFolderItLinksTo() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("real/sub"), withIntermediateDirectories: true)
        _ = try file("clock\n", name: "real/b.chat", in: folder)
        _ = try file("clock\n", name: "real/sub/a.chat", in: folder)
        let link = folder.url.appendingPathComponent("linked").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder.url.appendingPathComponent("real").path)
        #expect(try TranscriptRunner.files(in: [link]) == [link + "/b.chat", link + "/sub/a.chat"])
        #expect(try TranscriptRunner.files(in: [link + "/"]) == [link + "/b.chat", link + "/sub/a.chat"])
    }

    @Test func filesRunInParallelInOrder() throws {
        let folder = try TemporaryFolder()
        var paths: [String] = []
        for index in 0..<6 {
            paths.append(
                try file(
                    index == 4 ? "> clock\nwrong\n" : "user set u\(index)\nexpect client.user == u\(index)\n", name: "f\(index).chat",
                    in: folder))
        }
        let results = TranscriptRunner.runAll(paths, jobs: 3)
        #expect(results.map(\.path) == paths)
        #expect(results.map(\.passed) == [true, true, true, true, false, true])
        #expect(TranscriptRunner.summary(results) == "5 passed, 1 failed")
    }

    /// Each failing step keeps its file, line, input, expected and found
    /// lines (issue 30 §3), for --json, --junit and --annotations.
    @Test func aFailingStepKeepsItsLineAndLines() throws {
        let folder = try TemporaryFolder()
        let path = try file("> clock\n[..]\n\n> user set alice\nuser bob set\n> expect client.user == bob\n...\n", in: folder)
        let result = TranscriptRunner.run(path: path)
        #expect(result.status == .failed)
        #expect(result.failedSteps.map(\.line) == [4, 6])
        #expect(result.failedSteps.map(\.reason) == [.outputDiffers, .expectFailed])
        let first = try #require(result.failedSteps.first)
        #expect(first.file == path && first.input == "user set alice" && first.expected == ["user bob set"])
        #expect(first.found == ["user alice set on client (no request)", "  [00:00:00.000] client.session → userSet(alice)"])
        #expect(first.summary == "output differs at > user set alice")
        #expect(result.failedSteps[1].expected == ["..."])
    }

    @Test func aSkippedFileSaysSoInItsStatus() throws {
        let folder = try TemporaryFolder()
        let path = try file("# server-only: needs a server\n> clock\nclock [..]\n", in: folder)
        let result = TranscriptRunner.run(path: path)
        #expect(result.passed && result.status == .skipped)
        let entry = TranscriptJSONEntry(result)
        #expect(entry.status == .skipped && entry.skipped == "needs a server" && entry.passed)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let failing = TranscriptRunner.run(path: try file("> clock\nno\n", name: "f.chat", in: folder))
        let json = String(decoding: try encoder.encode(TranscriptJSONEntry(failing)), as: UTF8.self)
        #expect(json.contains("\"status\":\"failed\""), "\(json)")
        #expect(json.contains("\"failedSteps\":[{\"expected\":[\"no\"],\"file\":\"\(folder.url.path)/f.chat\",\"found\":[\"20"), "\(json)")
        #expect(json.contains("\"input\":\"clock\",\"line\":1,\"reason\":\"outputDiffers\"}]"), "\(json)")
    }

    /// A file out of time names the line of the step it was running.
    @Test func aTimeoutNamesTheLineItReached() {
        let block = Transcript.Block(input: "clock advance 3650d", line: 3, expected: [], trailingBlankLines: 0)
        let result = TranscriptRunner.timedOut(path: "examples/slow.chat", after: .milliseconds(300), at: block)
        #expect(result.status == .timedOut && !result.passed)
        #expect(
            result.failures == [
                "  line 3: > clock advance 3650d",
                "    ran out of time: still running after 300ms of wall time (--timeout); the rest of the file did not run",
            ])
        #expect(result.failedSteps.map(\.line) == [3])
        let xml = JUnitWriter.xml([result])
        #expect(xml.contains("<failure type=\"timedOut\" message=\"examples/slow.chat:3: ran out of time at &gt; clock advance 3650d\">"))
        #expect(!xml.contains("output differs"))
    }

    @Test func junitFailuresStartWithPathAndLine() throws {
        let folder = try TemporaryFolder()
        let path = try file("> clock\n[..]\n> user set alice\nuser bob set\n", in: folder)
        let xml = JUnitWriter.xml([TranscriptRunner.run(path: path)])
        #expect(xml.contains("<failure type=\"outputDiffers\" message=\"\(path):3: output differs at &gt; user set alice\">"), "\(xml)")
    }

    @Test func githubAnnotationsEscapeAsDocumented() throws {
        #expect(
            GitHubAnnotations.command(file: "a,b:c.chat", line: 3, title: "50%: x", message: "50%\r\nnext: a,b")
                == "::error file=a%2Cb%3Ac.chat,line=3,title=50%25%3A x::50%25%0D%0Anext: a,b")
        let folder = try TemporaryFolder()
        let path = try file("> clock\n[..]\n> user set alice\nuser bob set\n", in: folder)
        let passing = try file("> clock\n[..]\n", name: "p.chat", in: folder)
        let commands = GitHubAnnotations.commands([TranscriptRunner.run(path: path), TranscriptRunner.run(path: passing)])
        #expect(
            commands == [
                "::error file=\(path),line=3,title=output differs at > user set alice::- user bob set%0A+ user alice set on client (no request)"
                    + "%0A+   [00:00:00.000] client.session → userSet(alice)"
            ])
        let malformed = GitHubAnnotations.commands([.error(TranscriptError(path: "x.chat", line: 2, "bad"))])
        #expect(malformed == ["::error file=x.chat,line=2,title=cannot run this file::x.chat:2: bad"])
        let unreadable = GitHubAnnotations.commands([.error(TranscriptError(path: "y.chat", "cannot read"))])
        #expect(unreadable == ["::error file=y.chat,title=cannot run this file::y.chat: cannot read"])
    }

    @Test func junitShape() throws {
        let results = [
            TranscriptResult(
                path: "examples/01-a.chat", kind: .transcript, passed: true, failures: [], isError: false, output: "", updatedText: nil,
                seconds: 0.0125),
            TranscriptResult(
                path: "examples/02-b.chat", kind: .transcript, passed: false,
                failures: ["  line 3: > send c1 text \"<hi>\"", "    - a & b"], isError: false, output: "", updatedText: nil, seconds: 1.5),
            .error(TranscriptError(path: "examples/03-c.chat", line: 2, "bad")),
        ]
        #expect(
            JUnitWriter.xml(results) == """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites tests="3" failures="1" errors="1" time="1.513">
                  <testsuite name="chatbench" tests="3" failures="1" errors="1" time="1.513">
                    <testcase name="01-a.chat" classname="examples" time="0.013"/>
                    <testcase name="02-b.chat" classname="examples" time="1.500">
                      <failure message="output differs or an expect failed at line 3: &gt; send c1 text &quot;&lt;hi&gt;&quot;">  line 3: &gt; send c1 text &quot;&lt;hi&gt;&quot;
                    - a &amp; b</failure>
                    </testcase>
                    <testcase name="03-c.chat" classname="examples" time="0.000">
                      <error message="examples/03-c.chat:2: bad">examples/03-c.chat:2: bad</error>
                    </testcase>
                  </testsuite>
                </testsuites>

                """)
    }
}
