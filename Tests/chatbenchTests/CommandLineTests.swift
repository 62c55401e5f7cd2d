import ChatTestSupport
import Testing

/// The executable as a user runs it (SPEC W1, W10).
@Suite struct CommandLineTests {
    @Test func versionPrintsNameAndVersion() throws {
        let run = try ChatbenchBinary.run(["--version"])
        #expect(run.status == 0)
        #expect(run.stdout == "chatbench 0.1.0\n")
        #expect(run.stderr == "")
    }

    @Test func runOfAMissingFileSaysSoInOneLineAndExits2() throws {
        let run = try ChatbenchBinary.run(["run", "/nonexistent/script.chat"])
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(run.stderr == "chatbench: cannot read /nonexistent/script.chat: No such file or directory\n")
    }

    @Test func runOfAFolderSaysSoInOneLineAndExits2() throws {
        let folder = try TemporaryFolder()
        let run = try ChatbenchBinary.run(["run", folder.url.path])
        #expect(run.status == 2)
        #expect(run.stderr == "chatbench: cannot read \(folder.url.path): Is a directory\n")
    }

    @Test func runOfAFileAndOfStandardInput() throws {
        let folder = try TemporaryFolder()
        let script = folder.url.appendingPathComponent("script.chat")
        try "# a comment\nclock\n".write(to: script, atomically: true, encoding: .utf8)
        let fromFile = try ChatbenchBinary.run(["run", script.path, "--no-record"])
        #expect(fromFile.status == 0)
        #expect(fromFile.stderr == "")
        let fromStdin = try ChatbenchBinary.run(["run", "-", "--no-record"], input: "# a comment\nclock\n")
        #expect(fromStdin.status == 0)
        #expect(fromStdin.stdout == fromFile.stdout)
    }

    @Test func pipedInputGetsNoPromptAndNoBanner() throws {
        let run = try ChatbenchBinary.run(["--no-record"], input: "# nothing\n")
        #expect(run.status == 0)
        #expect(!run.stdout.contains("chatbench>"))
        #expect(!run.stdout.contains("chatbench ("))
        #expect(run.stderr == "")
    }

    @Test func pipedInputIsDeterministic() throws {
        let input = "# a comment\nclock\nhelp\n"
        let first = try ChatbenchBinary.run(["--seed", "7", "--no-record"], input: input)
        let second = try ChatbenchBinary.run(["repl", "--seed", "7", "--no-record"], input: input)
        #expect(first.stdout == second.stdout)
        #expect(first.status == second.status)
    }

    @Test func serverThatDoesNotAnswerIsOneLineAndStatusTwo() throws {
        let run = try ChatbenchBinary.run(["--server", "http://127.0.0.1:9", "--no-record"], input: "clock\n")
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("chatbench: cannot use the server at http://127.0.0.1:9: "))
        #expect(run.stderr.hasSuffix("(is `chatbench serve` running there?)\n"))
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(run.stdout.isEmpty)
    }

    @Test func serverOptionNeedsAnHTTPURL() throws {
        let run = try ChatbenchBinary.run(["--server", "localhost:8080", "--no-record"], input: "clock\n")
        #expect(run.status == 2)
        #expect(run.stderr == "chatbench: --server needs a URL like http://127.0.0.1:8080, got \"localhost:8080\"\n")
    }

    @Test(arguments: [["test", "--bogus"], ["test", "--bogus", "examples/"], ["run", "--bogus", "x.chat"], ["--bogus"]])
    func aUsageErrorNamesTheUnknownOptionAndExits2(arguments: [String]) throws {
        let run = try ChatbenchBinary.run(arguments + ["--no-record"])
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("Error: Unknown option '--bogus'"), "\(run.stderr)")
        #expect(run.stdout == "")
    }

    @Test func testWithNoPathIsAUsageErrorWithStatus2() throws {
        let run = try ChatbenchBinary.run(["test"])
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("Error: name at least one .chat file or folder"), "\(run.stderr)")
    }

    @Test func theRootHelpListsTheREPLsOptions() throws {
        let run = try ChatbenchBinary.run(["--help"])
        for option in ["--server <url>", "--no-record", "--seed <n>", "-c <command>"] {
            #expect(run.stdout.contains(option), "\(option)")
        }
    }

    @Test func dashCRunsOneLineAndExitsAsAScript() throws {
        let ok = try ChatbenchBinary.run(["-c", "expect client.user == none", "--no-record"])
        #expect(ok.status == 0)
        #expect(ok.stdout == "ok: client.user == none\n")
        let failed = try ChatbenchBinary.run(["--no-record", "-c", "expect client.user == bob"])
        #expect(failed.status == 1)
        let misunderstood = try ChatbenchBinary.run(["--no-record", "-c", "clock advnce 1s"])
        #expect(misunderstood.status == 2)
        #expect(misunderstood.stdout == "script error: unknown verb \"clock advnce\" (did you mean clock advance?)\n")
    }

    @Test(arguments: [
        ["--help"], ["repl", "--help"], ["run", "--help"], ["test", "--help"], ["replay", "--help"],
        ["sessions", "--help"], ["sessions", "list", "--help"], ["sessions", "show", "--help"],
        ["export", "--help"], ["serve", "--help"], ["help", "run"],
    ])
    func helpWorksForEverySubcommand(arguments: [String]) throws {
        let run = try ChatbenchBinary.run(arguments)
        #expect(run.status == 0)
        #expect(run.stdout.contains("USAGE: chatbench"))
        #expect(run.stderr == "")
    }
}
