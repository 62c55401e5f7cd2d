import ChatTestSupport
import Foundation
import Testing

/// The REPL at a real terminal (tmux): the prompt, lines that go on,
/// colour, the start-up file. Skipped where tmux is not installed.
@Suite(.serialized) struct TerminalTests {
    /// One REPL in a detached tmux session of its own.
    final class Pane {
        let name = "chatbench-test-\(UUID().uuidString.prefix(8))"
        let scratch: TemporaryFolder

        init(arguments: [String] = [], environment: [String: String] = [:], rc: String? = nil) throws {
            scratch = try TemporaryFolder()
            let config = scratch.url.appendingPathComponent("config")
            if let rc {
                try FileManager.default.createDirectory(at: config.appendingPathComponent("chatbench"), withIntermediateDirectories: true)
                try rc.write(to: config.appendingPathComponent("chatbench/rc.chat"), atomically: true, encoding: .utf8)
            }
            var variables = [
                "XDG_STATE_HOME": scratch.url.appendingPathComponent("state").path,
                "XDG_DATA_HOME": scratch.url.appendingPathComponent("data").path,
                "XDG_CONFIG_HOME": config.path, "TERM": "xterm-256color",
            ]
            variables.merge(environment) { $1 }
            let command =
                (["env", "-u", "NO_COLOR"] + variables.map { "\($0.key)=\($0.value)" } + [try ChatbenchBinary.url().path, "--no-record"]
                + arguments)
                .map { "'\($0)'" }.joined(separator: " ")
            try Self.tmux(["new-session", "-d", "-s", name, "-x", "100", "-y", "40", command])
        }

        deinit { _ = try? Self.tmux(["kill-session", "-t", name]) }

        func type(_ text: String, enter: Bool = true) throws {
            try Self.tmux(["send-keys", "-t", name, "-l", text])
            if enter { try Self.tmux(["send-keys", "-t", name, "Enter"]) }
        }

        /// The screen, with colour escapes when `escapes`.
        func screen(escapes: Bool = false) throws -> String {
            try Self.tmux(["capture-pane", "-p", "-t", name] + (escapes ? ["-e"] : []))
        }

        /// Waits up to 20 s for the screen to hold `text`.
        func waitFor(_ text: String, escapes: Bool = false) throws -> String {
            var last = ""
            for _ in 0..<200 {
                last = try screen(escapes: escapes)
                if last.contains(text) { return last }
                Thread.sleep(forTimeInterval: 0.1)
            }
            Issue.record("the screen never showed \(text.debugDescription):\n\(last)")
            return last
        }

        @discardableResult
        static func tmux(_ arguments: [String]) throws -> String {
            try Process.output(of: URL(fileURLWithPath: "/usr/bin/env"), ["tmux"] + arguments)
        }
    }

    static let hasTmux = FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")

    @Test(.enabled(if: hasTmux)) func aLineGoesOnWithItsOwnPromptAndThePromptShowsTheClient() throws {
        let pane = try Pane()
        _ = try pane.waitFor("chatbench>")
        try pane.type("user set \\")
        _ = try pane.waitFor("...>")
        try pane.type("alice")
        _ = try pane.waitFor("user alice set on client (no request)")
        try pane.type("client new phone2")
        try pane.type("use phone2")
        _ = try pane.waitFor("chatbench[phone2]>")
    }

    /// The README's tour pasted with its prompts and output (issue 30): the
    /// `> ` lines run, the output pasted with them is skipped, not an error.
    @Test(.enabled(if: hasTmux)) func aPastedTranscriptRunsItsCommandsAndSkipsItsOutput() throws {
        let pane = try Pane()
        _ = try pane.waitFor("chatbench>")
        try pane.type(
            "> user set alice\nuser alice set on client (no request)\n  [00:00:00.000] client.session → userSet(alice)\n"
                + "> start conversation\nc1 = conversation c-89025cc1 (local)", enter: true)
        // The pasted output line reaches a prompt of its own (skipped, not
        // run). Whether a blank line comes before that prompt depends on
        // when the pasted keys arrive while the line before still runs (a
        // loaded machine drew one), so the screen is not read across it.
        _ = try pane.waitFor("c1 = conversation c-89025cc1 (local)\n")
        _ = try pane.waitFor("chatbench> c1 = conversation c-89025cc1 (local)")
        try pane.type("whoami")
        let screen = try pane.waitFor("alice on client")
        #expect(!screen.contains("script error"), "\(screen)")
    }

    @Test(.enabled(if: hasTmux)) func colourOnATerminalAndNoneWithNO_COLOR() throws {
        let coloured = try Pane()
        _ = try coloured.waitFor("chatbench>")
        try coloured.type("expect error == none")
        try coloured.type("sned")
        let screen = try coloured.waitFor("\u{1B}[31mscript error:", escapes: true)
        #expect(screen.contains("\u{1B}[32mok: error == none"), "\(screen)")
        let plain = try Pane(environment: ["NO_COLOR": "1"])
        _ = try plain.waitFor("chatbench>")
        try plain.type("expect error == none")
        let text = try plain.waitFor("ok: error == none")
        #expect(!(try plain.screen(escapes: true)).contains("\u{1B}[32m"), "\(text)")
    }

    @Test(.enabled(if: hasTmux)) func theStartUpFileRunsUnlessNoRc() throws {
        let pane = try Pane(rc: "user set carol\n")
        _ = try pane.waitFor("user carol set on client (no request)")
        let skipped = try Pane(arguments: ["--no-rc"], rc: "user set carol\n")
        let screen = try skipped.waitFor("chatbench>")
        #expect(!screen.contains("carol"))
    }

    /// Output taller than the terminal goes through $PAGER (here one that
    /// marks each line), shorter output and --no-pager do not (issue 30).
    @Test(.enabled(if: hasTmux)) func longOutputIsPagedAtATerminal() throws {
        let pane = try Pane(environment: ["PAGER": "sed s/^/PAGED:/"])
        _ = try pane.waitFor("chatbench>")
        try pane.type("whoami")
        _ = try pane.waitFor("nobody on client")
        try pane.type("help")
        let screen = try pane.waitFor("PAGED:help VERB shows usage")
        #expect(!screen.contains("PAGED:nobody"), "\(screen)")
        let unpaged = try Pane(arguments: ["--no-pager"], environment: ["PAGER": "sed s/^/PAGED:/"])
        _ = try unpaged.waitFor("chatbench>")
        try unpaged.type("help")
        #expect(!(try unpaged.waitFor("help VERB shows usage")).contains("PAGED:"))
    }

    @Test(.enabled(if: hasTmux)) func timingPrintsVirtualAndWallTime() throws {
        let pane = try Pane()
        _ = try pane.waitFor("chatbench>")
        try pane.type("timing on")
        try pane.type("clock advance 2s")
        let screen = try pane.waitFor("virtual 2s, wall ")
        #expect(screen.contains("timing is on"))
    }

    /// Ctrl-C during a command stops it, keeps the world and its handles,
    /// says how far the clock went, and gives the prompt back.
    @Test(.enabled(if: hasTmux)) func ctrlCStopsACommandAndKeepsTheWorld() throws {
        let pane = try Pane()
        _ = try pane.waitFor("chatbench>")
        try pane.type("user set alice")
        try pane.type("watch conversations")
        _ = try pane.waitFor("w1 emits")
        try pane.type("wait w1 emits 100000 --within 100000d")
        Thread.sleep(forTimeInterval: 1.5)
        try Self.Pane.tmux(["send-keys", "-t", pane.name, "C-c"])
        _ = try pane.waitFor("interrupted after")
        try pane.type("expect w1.state == refreshed")
        let screen = try pane.waitFor("ok: w1.state")
        #expect(screen.contains("of virtual time"))
    }
}
