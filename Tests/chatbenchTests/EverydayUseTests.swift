import ChatTestSupport
import Foundation
import Testing

@testable import chatbench

/// What a person used to psql or IPython tries first: transcripts piped in,
/// options before the subcommand, typos, names, output that is not lost.
@Suite struct EverydayUseTests {
    static let transcript = """
        # a transcript, as in examples/
        > user set alice   # a trailing comment
        user alice set on client (no request)
          [00:00:00.000] client.session → userSet(alice)
        > expect client.user == alice
        ok: client.user == alice

        """

    @Test func aTranscriptOnStandardInputIsCheckedAsRunFileChecksIt() throws {
        let piped = try ChatbenchBinary.run(["--no-record"], input: Self.transcript)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(
            piped.stdout
                == "user alice set on client (no request)\n  [00:00:00.000] client.session → userSet(alice)\nok: client.user == alice\n")
        let wrong = try ChatbenchBinary.run(
            ["--no-record"],
            input: Self.transcript.replacingOccurrences(of: "== alice\nok: client.user == alice", with: "== alice\nok: something else"))
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("FAIL <stdin>"), "\(wrong.stderr)")
    }

    @Test func anExampleFilePipedInPasses() throws {
        let example = try String(
            contentsOf: ChatbenchBinary.packageRoot.appendingPathComponent("examples/01-walking-skeleton.chat"), encoding: .utf8)
        let piped = try ChatbenchBinary.run(["--no-record"], input: example)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(!piped.stdout.contains("unknown verb"))
    }

    @Test func optionsMayComeBeforeTheSubcommand() throws {
        let folder = try TemporaryFolder()
        let script = folder.url.appendingPathComponent("f.chat")
        try "clock\n".write(to: script, atomically: true, encoding: .utf8)
        let run = try ChatbenchBinary.run(["--no-record", "run", script.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("2026-01-01T00:00:00"))
        let seeded = try ChatbenchBinary.run(["--seed", "3", "--no-record", "run", script.path])
        #expect(seeded.status == 0, "\(seeded.stderr)")
    }

    @Test func aMistypedSubcommandGetsASuggestion() throws {
        let run = try ChatbenchBinary.run(["sesions"])
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(run.stderr == "chatbench: unknown subcommand \"sesions\" (did you mean sessions?); chatbench --help lists them\n")
    }

    @Test func argumentOrderIsPure() {
        let subcommands = ["run", "test", "sessions"]
        let arity: (String) -> Int? = { ["--seed": 1, "--db": 1, "--no-record": 0][$0] }
        #expect(
            ArgumentOrder.normalize(["--seed", "3", "run", "f"], subcommands: subcommands, arity: arity)
                == .arguments(["run", "--seed", "3", "f"]))
        #expect(
            ArgumentOrder.normalize(["--db=x", "sessions"], subcommands: subcommands, arity: arity) == .arguments(["sessions", "--db=x"]))
        #expect(ArgumentOrder.normalize(["--no-record"], subcommands: subcommands, arity: arity) == .arguments(["--no-record"]))
        #expect(ArgumentOrder.normalize([], subcommands: subcommands, arity: arity) == .arguments([]))
        // Options it does not know, and the parser's own, are left as they are.
        #expect(
            ArgumentOrder.normalize(["--generate-completion-script", "bash"], subcommands: subcommands, arity: arity)
                == .arguments(["--generate-completion-script", "bash"]))
        #expect(
            ArgumentOrder.normalize(["---completion", "run", "--", "x"], subcommands: subcommands, arity: arity)
                == .arguments(["---completion", "run", "--", "x"]))
        if case .unknownSubcommand = ArgumentOrder.normalize(["tset"], subcommands: subcommands, arity: arity) {
        } else {
            Issue.record("tset is no subcommand")
        }
        #expect(WorldOptions.arity("--seed") == 1)
        #expect(WorldOptions.arity("--no-record") == 0)
        #expect(WorldOptions.arity("--timeout") == nil)
    }

    @Test func aSessionNameIsUsedOnce() throws {
        let folder = try TemporaryFolder()
        let db = folder.url.appendingPathComponent("s.sqlite").path
        let first = try ChatbenchBinary.run(["--db", db, "--name", "explore"], input: "clock\n")
        #expect(first.status == 0, "\(first.stderr)")
        let second = try ChatbenchBinary.run(["--db", db, "--name", "explore"], input: "clock\n")
        #expect(second.status == 2)
        #expect(
            second.stderr
                == "chatbench: a session named \"explore\" is already recorded in \(db): choose another --name (chatbench sessions lists them) (or --no-record to run without recording)\n"
        )
        let listed = try ChatbenchBinary.run(["sessions", "--db", db, "--json"])
        #expect(listed.status == 0)
        let sessions = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]]
        #expect(sessions?.count == 1)
        #expect(sessions?.first?["unfinished"] as? Bool == false)
        #expect(sessions?.first?["shownStatus"] as? String == "ok")
    }

    @Test func dbInAFolderThatDoesNotExistIsAnError() throws {
        let folder = try TemporaryFolder()
        let db = folder.url.appendingPathComponent("missing/s.sqlite").path
        let run = try ChatbenchBinary.run(["--db", db], input: "clock\n")
        #expect(run.status == 2)
        #expect(
            run.stderr
                == "chatbench: cannot record into \(db): there is no folder \(folder.url.appendingPathComponent("missing").path) (create it, or pass --no-record)\n"
        )
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("missing").path))
    }

    /// Each step's output reaches a pipe when the step ends, not at exit:
    /// the first step's output is read while standard input is still open.
    @Test func eachStepIsWrittenWhenItEnds() throws {
        let (process, input, output) = try ChatbenchBinary.start(["--no-record"])
        defer {
            try? input.fileHandleForWriting.close()
            _ = try? process.waitForExit(timeout: .seconds(60))
        }
        input.fileHandleForWriting.write(Data("clock\n".utf8))
        let read = DispatchSemaphore(value: 0)
        let received = Locked("") // appended from a reading handler's thread
        output.fileHandleForReading.readabilityHandler = { handle in
            received.append(String(decoding: handle.availableData, as: UTF8.self))
            if received.value.contains("\n") { read.signal() }
        }
        let arrived = read.wait(timeout: .now() + 30) == .success
        output.fileHandleForReading.readabilityHandler = nil
        #expect(arrived, "no output while the run goes on; got \(received.value.debugDescription)")
        #expect(received.value.hasPrefix("2026-01-01T00:00:00"))
    }

    @Test func linesGoOnAfterABackslashOrInsideAQuote() throws {
        let run = try ChatbenchBinary.run(
            ["--no-record"], input: "user set \\\nalice\nexpect client.user \\\n  == alice\nexpect client.user != \"two\nlines\"\n")
        #expect(run.status == 0, "\(run.stdout)")
        #expect(run.stdout.contains("ok: client.user == alice\n"))
        #expect(run.stdout.contains(#"ok: client.user != "two\nlines""#))
    }

    @Test func theStartUpFileIsFoundUnderXDGConfigHome() {
        #expect(InteractiveLoop.startupFilePath(environment: ["XDG_CONFIG_HOME": "/c", "HOME": "/h"]) == "/c/chatbench/rc.chat")
        #expect(InteractiveLoop.startupFilePath(environment: ["HOME": "/h"]) == "/h/.config/chatbench/rc.chat")
        #expect(InteractiveLoop.prompt(context: nil) == "chatbench> ")
        #expect(InteractiveLoop.prompt(context: "phone2") == "chatbench[phone2]> ")
    }
}

/// Redaction replaces secret values, never the placeholders of help text.
@Suite struct HelpRedactionTests {
    @Test func helpLoginIsRecordedAndExportedAsPrinted() throws {
        let folder = try TemporaryFolder()
        let db = folder.url.appendingPathComponent("s.sqlite").path
        let recorded = try ChatbenchBinary.run(["--db", db, "--name", "h"], input: "help login jwt\nlogin jwt bob --secret hunter22\n")
        #expect(recorded.stdout.contains("[--secret S]"), "\(recorded.stdout)")
        let exported = folder.url.appendingPathComponent("h.chat").path
        let export = try ChatbenchBinary.run(["export", "h", exported, "--db", db])
        #expect(export.status == 0, "\(export.stderr)")
        let text = try String(contentsOfFile: exported, encoding: .utf8)
        #expect(text.contains("[--secret S]"), "\(text)")
        #expect(text.contains("  --secret S "), "\(text)")
        #expect(!text.contains("[--secret <secret"), "the help's S is no secret:\n\(text)")
        #expect(text.contains("login jwt bob --secret <secret#1>"), "the secret given is the first one:\n\(text)")
        #expect(!text.contains("hunter22"))
        let show = try ChatbenchBinary.run(["sessions", "show", "h", "--db", db])
        #expect(show.stdout.contains("[--secret S]"))
        #expect(!show.stdout.contains("hunter22"))
    }
}

/// `scripts/install.sh PREFIX` puts chatbench on PATH and the completions
/// where each shell looks (with CHATBENCH_BINARY, no release build).
@Suite struct InstallScriptTests {
    @Test func installsTheBinaryAndTheCompletions() throws {
        let prefix = try TemporaryFolder()
        let process = Process()
        process.executableURL = ChatbenchBinary.packageRoot.appendingPathComponent("scripts/install.sh")
        process.arguments = [prefix.url.path]
        var environment = ProcessInfo.processInfo.environment
        environment["CHATBENCH_BINARY"] = try ChatbenchBinary.url().path
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        #expect(try process.waitForExit() == ChildExit(status: 0, signaled: false))
        for path in [
            "bin/chatbench", "share/bash-completion/completions/chatbench", "share/zsh/site-functions/_chatbench",
            "share/fish/vendor_completions.d/chatbench.fish",
        ] {
            #expect(FileManager.default.fileExists(atPath: prefix.url.appendingPathComponent(path).path), "\(path)")
        }
        let version = try ChatbenchBinary.run(["--version"], environment: [:])
        let installed = Process()
        installed.executableURL = prefix.url.appendingPathComponent("bin/chatbench")
        installed.arguments = ["--version"]
        let output = Pipe()
        installed.standardOutput = output
        try installed.run()
        _ = try installed.waitForExit()
        #expect(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == version.stdout)
    }
}
