import Foundation
import Testing

@testable import Workbench

/// Runs lines in a fresh session and returns the outputs.
func run(_ lines: [String], seed: UInt64 = 1) throws -> (session: WorkbenchSession, results: [StepResult]) {
    var options = WorkbenchOptions()
    options.seed = seed
    let session = try WorkbenchSession(options: options)
    return (session, lines.map(session.execute))
}

@Suite struct InterpreterTests {
    @Test func theWalkingSkeletonStory() throws {
        let (session, results) = try run([
            "user set alice",
            "expect provider.calls == 0",
            "watch conversations",
            "expect provider.calls == 1",
            "start conversation --title \"Knee pain\"",
            "expect c1.local == true",
            "send c1 text \"Hello, doctor\"",
            "expect m1.state == sent",
            "expect c1.local == false",
            "agent say c1 \"How can I help?\"",
            "w2 = watch items c1",
            "expect w2.count == 2",
            "expect w2[0].text == \"How can I help?\"",
            "expect server.messages(c1).count == 2",
            "expect client.session == authenticated",
            "expect client.auth == tokens",
            "expect error == none",
        ])
        #expect(results.allSatisfy { $0.status == .ok }, "\(results.map(\.output))")
        #expect(session.exitStatus == 0)
    }

    @Test func aBrokenExpectExitsOne() throws {
        let (session, results) = try run(["user set alice", "expect client.user == bob"])
        #expect(results[1].status == .expectFailed)
        #expect(results[1].output == "expect failed: client.user == bob — expected == \"bob\", found \"alice\"\n")
        #expect(session.exitStatus == 1)
    }

    @Test func aLineThatCannotBeUnderstoodExitsTwo() throws {
        let (session, results) = try run(["sned c1 text hi", "expect client.user == none"])
        #expect(results[0].status == .scriptError)
        #expect(results[0].output == "script error: unknown verb \"sned\" (did you mean send?); type help for the list\n")
        #expect(session.exitStatus == 2)
    }

    @Test(arguments: [
        ("w9", "script error: unknown verb or handle \"w9\"\n"),
        (
            "client.sesion",
            "script error: client has no field \"sesion\" (did you mean session?); fields: user, auth, session, connection, connectionReason, cache\n"
        ),
        ("watch conversations --fast", "script error: unknown option --fast for watch; watch takes no options\n"),
        ("start conversation --titel x", "script error: unknown option --titel for start conversation (did you mean --title?)\n"),
        ("clock advance 10x", "script error: invalid duration \"10x\": write a number and a unit, e.g. 500ms, 30s, 10m, 2h\n"),
        ("net onlin", "script error: net needs one of online, offline, latency, fail, drop, log, got \"onlin\" (did you mean online?)\n"),
        ("send c1 text", "script error: unknown conversation \"c1\"\n"),
        ("provider sometimes", "script error: MODE must be one of ok, fail, unreachable, malformed, expired, delay, got \"sometimes\"\n"),
        ("user set", "script error: user set needs ID: usage: user set ID\n"),
        ("user set a b", "script error: too many arguments for user set (unexpected \"b\"): usage: user set ID\n"),
        ("expect client.user ~= x", "script error: unknown comparison \"~=\": use one of == != < <= > >= contains (did you mean ==?)\n"),
        ("send = watch conversations", "script error: \"send\" is a verb or a built-in name; choose another handle name\n"),
        ("clock advnce 1s", "script error: unknown verb \"clock advnce\" (did you mean clock advance?)\n"),
        ("user clr", "script error: user needs one of set, clear, got \"clr\" (did you mean clear?)\n"),
        (
            "server.mesages(c1)",
            "script error: server has no field \"mesages\" (did you mean messages(C)?); fields: users, requests, messages(C), sessions(ID), pushes(ID), pushlog(ID), attributes(ID), conversations(ID), settings\n"
        ),
        (
            "server.sesions(alice)",
            "script error: server has no field \"sesions\" (did you mean sessions(ID)?); fields: users, requests, messages(C), sessions(ID), pushes(ID), pushlog(ID), attributes(ID), conversations(ID), settings\n"
        ),
    ])
    func badLinesGetOneClearLine(line: String, message: String) throws {
        let (_, results) = try run([line])
        #expect(results[0].output == message)
        #expect(results[0].status == .scriptError)
    }

    /// W2, one way for all: a field a path reads that `inspect` does not
    /// show (a list, a function) is suggested and listed as the others
    /// are, and so is a client's name.
    @Test func everyFieldAPathReadsAndEveryClientGetsASuggestion() throws {
        let (_, results) = try run([
            "user set alice", "watch conversations", "clock.timrs", "w1.indxOf(c1)", "w1.elemnts", "client new phone", "use phne",
            "help w1",
        ])
        let watcherFields = "state, fresh, count, hasMore, emissions, error, watching, client, elements, indexOf(HANDLE)"
        #expect(
            results[2].output
                == "script error: clock has no field \"timrs\" (did you mean timers?); fields: now, elapsed, pending, timers\n")
        #expect(
            results[3].output == "script error: w1 has no field \"indxOf\" (did you mean indexOf(HANDLE)?); fields: \(watcherFields)\n")
        #expect(results[4].output == "script error: w1 has no field \"elemnts\" (did you mean elements?); fields: \(watcherFields)\n")
        #expect(results[6].output == "script error: unknown client \"phne\" (did you mean phone?)\n")
        #expect(results[7].output.hasPrefix("w1 is a watcher; its fields: \(watcherFields)\n"))
        #expect([2, 3, 4, 6].allSatisfy { results[$0].status == .scriptError })
    }

    @Test func sdkErrorsAreShownAndSetErrorWithoutFailingTheScript() throws {
        let (session, results) = try run([
            "watch conversations",
            "expect error.code == notAuthenticated",
            "start conversation",
            "expect error.code == notAuthenticated",
            "user set alice",
            "user set bob",
            "expect error.code == currentUserAlreadySet",
            "user set alice",
            "expect error == none",
        ])
        #expect(results[2].output.hasPrefix("error: notAuthenticated — "))
        #expect(
            results[5].output == "error: currentUserAlreadySet — User alice is already set: call clearCurrentUser() before setting bob\n")
        #expect(session.exitStatus == 0, "\(results.map(\.output))")
    }

    @Test func handlesCanBeNamed() throws {
        let (session, results) = try run([
            "user set alice",
            "inbox = watch conversations",
            "visit = start conversation",
            "hello = send visit text hi",
            "expect hello.state == sent",
            "expect inbox.count == 1",
            "send visit text again",
            "expect m1.text == again",
            "expect hello.text == hi",
        ])
        #expect(results[1].output.hasPrefix("inbox = watch conversations\n"))
        // Events use the name chosen, not an automatic handle.
        #expect(results[1].output.contains("inbox emits"), "\(results[1].output)")
        #expect(results[6].output.hasPrefix("m1 = text message in visit\n"), "\(results[6].output)")
        #expect(session.exitStatus == 0, "\(results.map(\.output))")
    }

    @Test func aBoundNameIsNeverTakenByAutomaticNumbering() throws {
        let (session, results) = try run([
            "user set alice",
            "start conversation",
            "m2 = send c1 text mine",
            "send c1 text next",
            "send c1 text third",
            "expect m2.text == mine",
            "expect m1.text == next",
            "expect m3.text == third",
        ])
        #expect(results[3].output.hasPrefix("m1 = text message in c1\n"), "\(results[3].output)")
        #expect(results[4].output.hasPrefix("m3 = text message in c1\n"), "\(results[4].output)")
        #expect(session.exitStatus == 0, "\(results.map(\.output))")
    }

    @Test func bindingANameInUseIsRefusedBeforeTheVerbRuns() throws {
        let (session, results) = try run([
            "user set alice",
            "start conversation --title first",
            "c1 = start conversation --title second",
            "watch conversations",
            "expect w1.count == 1",
            "expect w1[0] == c1",
            "x = user set bob",
        ])
        #expect(
            results[2].output == "script error: c1 already names a conversation: names are never rebound; pick another, as in c1_2 = …\n")
        #expect(results[2].status == .scriptError)
        #expect(results[6].output == "script error: user set makes no object to name: write it without \"x =\"\n")
        #expect(results[4].status == .ok && results[5].status == .ok, "\(results.map(\.output))")
        _ = session
    }

    @Test func anInspectionFollowedByJSONPrintsJSON() throws {
        let (_, results) = try run([
            "user set alice", "start conversation", #"send c1 text "two\nlines \"q\"""#, "m1 --json", "m1.text --json", "w9 --json",
        ])
        let object = try JSONSerialization.jsonObject(with: Data(results[3].output.utf8)) as? [String: Any]
        #expect(object?["handle"] as? String == "m1")
        #expect(object?["text"] as? String == "two\nlines \"q\"")
        #expect(object?["conversation"] as? String == "c1")
        #expect(object?["replyTo"] is NSNull)
        #expect(results[4].output == #""two\nlines \"q\"""# + "\n")
        #expect(results[5].status == .scriptError)
    }

    @Test func sameLinesSameSeedSameTranscript() throws {
        let lines = [
            "user set alice", "watch conversations", "start conversation", "send c1 text hi", "agent say c1 hello --times 3",
            "clock advance 2h", "inspect m1",
        ]
        let first = try run(lines, seed: 5).results.map(\.output)
        let second = try run(lines, seed: 5).results.map(\.output)
        #expect(first == second)
        let other = try run(lines, seed: 6).results.map(\.output)
        #expect(first != other)
    }

    @Test func helpListsGroupsAndVerbs() throws {
        let (_, results) = try run(["help", "help send", "help snd"])
        #expect(results[0].output.contains("data:\n"))
        #expect(
            results[0].output.contains(
                "  send C text|image|video|document|audio [CONTENT] [--reply-to M] [--size BYTES] [--type MIME] [--client NAME]"))
        #expect(
            results[1].output == """
                usage: send C text|image|video|document|audio [CONTENT] [--reply-to M] [--size BYTES] [--type MIME] [--client NAME]
                  sendMessage: appears at once, then toBeSent → sending → sent or failed; an attachment's FILE is read and uploaded first
                options:
                  --reply-to M   the message it answers
                  --size BYTES   an attachment's size, without a file
                  --type MIME    an attachment's MIME type
                  --client NAME  the client that sends it (needed when C is another client's conversation than the current one's)
                example: send c1 image examples/files/dot.png

                """)
        #expect(results[2].output == "script error: no verb or topic \"snd\" (did you mean send?); help -k snd searches\n")
    }

    /// At 60, 80 and 160 columns every description starts at one column,
    /// and so do its wrapped lines; a usage too long for the left column
    /// wraps its options at column 6 (issue 30: wrapped descriptions used
    /// to start at another column than their first line).
    @Test(arguments: [60, 80, 160]) func helpLaysOutDescriptionsInOneColumn(width: Int) throws {
        var options = WorkbenchOptions()
        options.width = width
        let lines = try WorkbenchSession(options: options).execute("help").output.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.count <= width }, "\(lines.filter { $0.count > width })")
        let use = try #require(lines.first { $0.hasPrefix("  use NAME ") })
        let column = try #require(use.firstMatch(of: /^  \S.*?  +(?=\S)/)).output.count
        #expect(column <= width * 2 / 5)
        let listed = lines.prefix { !$0.hasPrefix("inspection:") }
        for line in listed where line.hasPrefix("  ") {
            let indent = line.prefix { $0 == " " }.count
            #expect(indent == 2 || indent == 6 || indent == column, "\(line)")
            if indent == 2, let usageAndGap = line.firstMatch(of: /^  \S.*?  +(?=\S)/) {
                #expect(usageAndGap.output.count == column, "\(line)")
            }
        }
    }

    @Test func helpWrapsToTheTerminalAndHasNoRequirementCodes() throws {
        var options = WorkbenchOptions()
        options.width = 80
        let narrow = try WorkbenchSession(options: options).execute("help").output
        let lines = narrow.split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines.filter { $0.count > 80 })")
        let wide = try WorkbenchSession(options: WorkbenchOptions()).execute("help").output
        #expect(wide.split(separator: "\n").contains { $0.count > 80 }, "without a width, help is not wrapped")
        #expect(wide.range(of: #"[ (][ADSWC][0-9]{1,2}[),]"#, options: .regularExpression) == nil, "\(wide)")
        #expect(wide.contains("server: server.users, server.requests"), "the inspection functions are listed")
        #expect(wide.contains("clock: clock."), "\(wide)")
        #expect(wide.contains("topics: handles, paths, durations, watchers, faults, files"))
    }

    @Test func helpTopicsSearchesAndObjects() throws {
        let (_, results) = try run([
            "help watchers", "help -k revoke", "user set alice", "watch conversations", "help w1", "help nosuch", "? durations",
        ])
        #expect(results[0].output.contains("refreshing (asking the server), refreshed"))
        #expect(results[1].output.contains("  token revoke  the server revokes"), "\(results[1].output)")
        #expect(results[1].output.contains("  topic faults: "), "\(results[1].output)")
        #expect(results[4].output.hasPrefix("w1 is a watcher; its fields: state, fresh, count"), "\(results[4].output)")
        #expect(results[5].output == "script error: no verb or topic \"nosuch\"; help -k nosuch searches\n")
        #expect(results[6].output.contains("2h34m0.947s"))
    }

    @Test func historyAndReset() throws {
        let (session, results) = try run([
            "user set alice", "login jwt bob --secret hunter22", "history", "history -k alice", "reset", "client.user", "history 1",
        ])
        #expect(results[2].output == "  1  user set alice\n  2  login jwt bob --secret <secret#1>\n  3  history\n")
        #expect(results[3].output == "  1  user set alice\n  4  history -k alice\n")
        #expect(results[5].output == "none\n", "a fresh world has no user")
        #expect(results[6].output == "  7  history 1\n")
        _ = session
    }

    @Test func thePromptShowsTheCurrentClientWhenItIsNotTheFirst() throws {
        let (session, _) = try run(["user set alice"])
        #expect(session.promptContext == nil)
        _ = session.execute("client new phone2")
        #expect(session.promptContext == "phone2")
        _ = session.execute("use client")
        #expect(session.promptContext == nil)
        _ = session.execute("use phone2")
        #expect(session.promptContext == "phone2")
    }

    @Test func timingIsShownBesideTheOutputNeverInIt() throws {
        let (session, results) = try run(["timing on", "clock advance 2s", "timing off", "clock"])
        #expect(results[0].timing == nil)
        #expect(results[1].timing?.hasPrefix("virtual 2s, wall ") == true, "\(String(describing: results[1].timing))")
        #expect(!results[1].output.contains("virtual"))
        #expect(results[2].timing == nil && results[3].timing == nil)
        _ = session
    }

    @Test func everyVerbHasAnExampleThatParses() throws {
        for spec in CommandTable.standard.specs {
            #expect(!spec.summary.isEmpty && !spec.example.isEmpty, "\(spec.name)")
            let tokens = try Tokenizer.tokenize(spec.example)
            let words =
                tokens.first?.text == spec.example.split(separator: " ").first.map(String.init) && tokens.count > 2 && tokens[1].text == "="
                ? Array(tokens.dropFirst(2)) : tokens
            #expect(CommandTable.standard.match(words)?.0.name == spec.name, "example of \(spec.name) does not dispatch to it")
        }
    }

    @Test func quitEndsTheSession() throws {
        let (_, results) = try run(["quit"])
        #expect(results[0].status == .quit)
    }
}

@Suite struct CompletionTests {
    func completions(_ lines: [String], _ prefix: String) throws -> [String] {
        let (session, _) = try run(lines)
        return session.completions(for: prefix, cursor: prefix.utf8.count)
    }

    @Test func verbs() throws {
        #expect(try completions([], "wa") == ["wait", "watch"])
        #expect(try completions([], "net o") == ["offline", "online"])
        // help's argument is a verb, completed word by word, or a topic.
        #expect(try completions([], "help wa") == ["wait", "watch", "watchers"])
        #expect(try completions([], "help clock a") == ["advance"])
        let withHandles = try completions(["user set alice", "watch conversations"], "help w")
        #expect(withHandles == ["w1", "wait", "watch", "watchers", "whoami"], "\(withHandles)")
        #expect(try completions([], "help net o") == ["offline", "online"])
    }

    @Test func optionsAndChoices() throws {
        #expect(try completions([], "start conversation --t") == ["--title"])
        #expect(try completions([], "watch ") == ["conversation", "conversations", "items"])
        #expect(try completions([], "provider m") == ["malformed"])
    }

    @Test func handlesAndFields() throws {
        let lines = ["user set alice", "watch conversations", "start conversation"]
        #expect(try completions(lines, "watch items ") == ["c1"])
        #expect(try completions(lines, "w1.st") == ["w1.state"])
        #expect(try completions(lines, "expect client.se") == ["client.session"])
        #expect(try completions(lines, "expect w1.count ") == ["!=", "<", "<=", "==", ">", ">=", "contains"])
        #expect(try completions(lines, "server.me") == ["server.messages("])
        #expect(try completions(lines, "clock.ti") == ["clock.timers"])
        #expect(try completions(lines, "w1.in") == ["w1.indexOf("])
    }
}
