/// The pages of `help TOPIC`: what the verbs' one-line summaries cannot say.
enum HelpTopics {
    static let pages: [(name: String, summary: String, lines: [String])] = [
        (
            "handles", "how objects are named: w1, c1, m1, client, your own names",
            [
                "Every object a command makes gets a handle: watchers w1, w2…, conversations c1…,",
                "messages m1…; clients by their name (client, phone2…). Type a handle alone to see",
                "the object, inspect HANDLE for every field and its history, help HANDLE for its fields.",
                "NAME = VERB … names what the verb makes (inbox = watch conversations); events then",
                "use that name (inbox emits …). A name is never rebound: binding one that is in use is",
                "refused, and automatic numbering skips the names you chose.",
                "Built-in names: client (the current client), server, provider, clock, net, delegate,",
                "and error (the error of the last command, none when it succeeded).",
            ]
        ),
        (
            "paths", "reading fields: m1.state, w1[0].text, server.messages(c1)",
            [
                "A path starts at a handle or a built-in name and reads on: .field, [index] (from 0),",
                ".field(ARGUMENT) for fields that take one. Examples: m1.state, w1[0].text,",
                "w1.count, server.messages(c1)[1].author, server.attributes(alice).",
                "A path alone prints its value; PATH --json prints it as JSON; expect PATH OP VALUE",
                "checks it, with OP one of == != < <= > >= contains. Strings print quoted; a quoted",
                "number and a number compare the same (\"2\" == 2); a number never equals a word.",
                "VALUE may be a path too (expect m2.text == m1.text); quoted, it stays a string.",
                "A watcher's indexOf(HANDLE) is where its last emission shows an object, from 0:",
                "expect w1.indexOf(m2) < w1.indexOf(m1).",
            ]
        ),
        (
            "durations", "500ms, 30s, 10m, 2h, 1d, 1m30s",
            [
                "Durations are written as numbers with units, joined: ms, s, m, h, d (500ms, 30s, 1m30s,",
                "2h, 1d), with fractions where they make whole milliseconds (1.5s, 59m29.5s). They print",
                "in the shortest spelling, which reads back: 189ms, 1.5s, 2h34m0.947s, 60d 1h30m.",
                "Times in events, [00:00:01.250], count from the start of the world's virtual clock.",
                "A command ending in & starts without waiting for its work in flight (send c1 text hi &):",
                "what happens at once prints, the rest as the clock moves; clock advance goes no further",
                "than its target, so a fault can land while a request is on the wire (examples/59-races.chat).",
            ]
        ),
        (
            "watchers", "live views: refreshing, refreshed, failed, fresh",
            [
                "watch conversations | conversation C | items C starts a watcher. It first emits what",
                "the cache holds, then what the server says, and again on every change. Each emission",
                "says whether the data is fresh (it reflects the server) or cached (it may be stale),",
                "and the refreshing state: refreshing (asking the server), refreshed (the last ask",
                "succeeded), failed (it did not; the error code follows). more W loads another page;",
                "stop W ends a watcher (a stopped watcher says so rather than loading more).",
            ]
        ),
        (
            "faults", "what can go wrong on purpose: net, provider, token, app",
            [
                "net offline|online, net latency D, net fail N (the next N requests fail), net drop",
                "(cut the realtime connection), net log on (show every request).",
                "net offline|drop --in-flight before-commit|after-commit also loses each request on the",
                "wire at once, as a lost connection (reset): before the server got it, or after it did it",
                "and its answer was lost. The outbox sends it again; the server de-duplicates the resend",
                "by the message's id, so nothing doubles (examples/68-faults-at-a-point.chat).",
                "net fail N --kind reset|refused|timeout|503|offline fails them as a real transport does",
                "(reset is the default). Every kind is retryable: the message stays toBeSent and the outbox",
                "sends it again, in order, after a back-off (settle runs it) or when the realtime connection",
                "opens; only the server refusing a message (4xx with a code) makes it failed, or a client",
                "made with client new NAME --no-auto-resend (autoResend off), which fails it at once.",
                "provider ok|fail|malformed|expired|delay D: how the token provider answers.",
                "token expire|revoke: the server forgets or refuses the access token.",
                "app restart [--corrupt-cache]|background|foreground: the app's life.",
                "Against a server (--server URL) the same faults are applied in front of the transport,",
                "but for --in-flight, an error there: a real server's requests cannot be cut at a point.",
            ]
        ),
        (
            "files", "paths a line reads or writes, and the session's own folder $SCRATCH",
            [
                "A FILE (send C image FILE, run FILE, export … OUT, --bundle FILE, --html FILE,",
                "replay FILE) is a path, relative to the folder chatbench started in.",
                "$SCRATCH in a line stands for a folder of the session's own, made at its first use",
                "and removed with the session (reset gives a new one): export last $SCRATCH/t.chat.",
                "What a step prints shows that folder as $SCRATCH, so a transcript that writes",
                "files prints the same on every run, and two runs of it at once never write the",
                "same file (examples/69-replay-and-export-in-the-repl.chat).",
            ]
        ),
    ]

    static func page(_ name: String) -> [String]? {
        pages.first { $0.name == name }?.lines
    }

    /// Splits `line` into lines no wider than `width`, later lines indented
    /// by `indent` spaces; words longer than a line stay whole.
    static func wrap(_ line: String, width: Int?, indent: Int) -> [String] {
        guard let width, line.count > width else { return [line] }
        let indent = min(indent, width / 2)
        let leading = line.prefix { $0 == " " }
        var lines: [String] = []
        var current = String(leading)
        for word in line.dropFirst(leading.count).split(separator: " ", omittingEmptySubsequences: false) {
            let isStart = current.count == leading.count && lines.isEmpty || current.allSatisfy { $0 == " " }
            if !isStart, current.count + 1 + word.count > width {
                lines.append(current)
                current = String(repeating: " ", count: indent) + word
            } else {
                current += (isStart ? "" : " ") + word
            }
        }
        lines.append(current)
        return lines
    }
}
