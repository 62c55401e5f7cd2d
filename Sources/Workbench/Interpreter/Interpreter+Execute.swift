import ChatCore
import ChatSimulation

extension Interpreter {
    /// Runs one line; returns its output and status.
    func execute(_ rawLine: String) -> StepResult {
        output.clear()
        state.stepFailure = nil
        world.interruption.clear()
        // Against a server, what happened since the last command shows with this one.
        if world.isEmbedded { _ = log.take() }
        let line = rawLine.trimmingWhitespace
        var status = StepStatus.ok
        var scriptError: ScriptError.Code?
        let stepStart = world.now
        let ticksAtStart = world.interruption.ticks
        if !line.isEmpty, !line.hasPrefix("#") {
            do {
                status = try run(line)
            } catch {
                print("script error: \(error.message)", as: .failure)
                status = .scriptError
                scriptError = error.code
                state.stepFailure = error.message
            }
        }
        var stoppedAfterTicks: Int?
        if world.interruption.clear() {
            status = .interrupted
            if world.isEmbedded { stoppedAfterTicks = world.interruption.ticks - ticksAtStart }
            output.trailer.append(StyledText("interrupted after \(Format.duration(world.now - stepStart)) of virtual time"))
        }
        if status == .scriptError { sawScriptError = true }
        if status == .expectFailed { sawExpectFailure = true }
        var events: [StepEvent] = []
        var shownTimes: [Instant] = []
        var shownTexts: [String] = []
        do {
            let entries = log.take()
            events.reserveCapacity(entries.count)
            for entry in entries {
                // Each event became text once, when logged: for the transcript and the
                // recording; with the input's control characters escaped (see `print`).
                let text = Format.escapingControls(entry.text)
                events.append(StepEvent(time: entry.time, event: entry.event, text: text))
                if state.showNetwork || !entry.event.isNetwork {
                    shownTimes.append(entry.time)
                    shownTexts.append(text)
                }
            }
        }
        // The output is written into one string as it is made: a step of
        // 100,000 events used to hold each line three times (the lines,
        // each with its "\n", and the joined text). Its room is reserved
        // first (a bound: a stamp takes at most 32 bytes, a repeat's words
        // 48): grown by doubling, it held up to twice its text and, while it
        // grew, the old buffer too (issue 31). What each part is (an error,
        // an event's time) is said as it is written, for the terminal's
        // colours (issue 30).
        let folded = EventRuns.fold(shownTexts)
        let (lines, trailer) = (output.lines, output.trailer)
        var bound = (lines + trailer).reduce(0) { $0 + $1.text.utf8.count + 1 }
        for line in folded {
            switch line {
            case .event(let index): bound += 32 + shownTexts[index].utf8.count + 1
            case .repeated(_, let block, _): bound += 32 + 48 + block.reduce(0) { $0 + shownTexts[$1].utf8.count + 3 } + 1
            }
        }
        var styled = StyledText()
        styled.reserveCapacity(bytes: bound, spans: folded.count + lines.count + trailer.count)
        func emit(_ line: StyledText) {
            styled.append(line)
            styled.append("\n")
        }
        func emitEvent(at time: Instant, _ text: String) {
            styled.append("  ")
            styled.append(EventLog.stamp(time, since: start), as: .eventTime)
            styled.append(" ")
            styled.append(text)
            styled.append("\n")
        }
        lines.forEach(emit)
        for line in folded {
            switch line {
            case .event(let index):
                emitEvent(at: shownTimes[index], shownTexts[index])
            case .repeated(let count, let block, let last):
                let what = block.map { shownTexts[$0] }.joined(separator: " · ")
                emitEvent(at: shownTimes[last], "… \(EventRuns.grouped(count)) more time\(count == 1 ? "" : "s"): \(what)")
            }
        }
        trailer.forEach(emit)
        var result = StepResult(
            styledOutput: styled, status: status, events: events, virtualTime: world.now,
            traffic: world.takeTraffic())
        result.scriptError = scriptError
        result.stoppedAfterTicks = stoppedAfterTicks
        result.made = output.made
        result.failure = status == .expectFailed || status == .scriptError ? state.stepFailure : nil
        return result
    }

    private func run(_ line: String) throws(ScriptError) -> StepStatus {
        var tokens = try expandingScratch(try Tokenizer.tokenize(line))
        // `COMMAND &`: started without waiting for its work in flight (issue
        // 29): what happens at once is printed, the rest as the clock moves.
        if tokens.count >= 2, let last = tokens.last, last.text == "&", !last.quoted {
            guard let world = (world as? EmbeddedStage)?.world else {
                throw ScriptError(.needsEmbeddedWorld, "a command with & needs the embedded world's virtual time")
            }
            tokens.removeLast()
            world.holdsInFlight = true
            defer { world.holdsInFlight = false }
            return try run(tokens, line: line)
        }
        return try run(tokens, line: line)
    }

    private func run(_ tokens: [Token], line: String) throws(ScriptError) -> StepStatus {
        var tokens = tokens
        guard let first = tokens.first else { return .ok }
        var binding: String?
        if tokens.count >= 2, tokens[1].text == "=", !tokens[1].quoted, !first.quoted {
            guard first.text.allSatisfy(PathExpression.isIdentifierCharacter), first.text.first?.isLetter == true else {
                throw ScriptError(.syntax, "\"\(first.text)\" cannot name a handle: use letters, digits, - and _")
            }
            guard table.spec(named: first.text) == nil, !SessionObjects.reservedRoots.contains(first.text) else {
                throw ScriptError(.nameTaken, "\"\(first.text)\" is a verb or a built-in name; choose another handle name")
            }
            if handles.isTaken(first.text) {
                let free = (2...).lazy.map { "\(first.text)_\($0)" }.first { !self.handles.isTaken($0) }!
                throw ScriptError(
                    .nameTaken,
                    "\(first.text) already names \(handles.describeHandle(first.text)): names are never rebound; pick another, as in \(free) = …"
                )
            }
            binding = first.text
            tokens.removeFirst(2)
            guard !tokens.isEmpty else {
                throw ScriptError(.syntax, "nothing after \"\(first.text) =\": write a verb, as in \(first.text) = watch conversations")
            }
        }
        // `PATH --json`: an inspection, printed as JSON.
        if binding == nil, tokens.count == 2, !tokens[0].quoted, !tokens[1].quoted, tokens[1].text == "--json",
            PathExpression.looksLikePath(tokens[0].text)
        {
            let path = try PathExpression.parse(tokens[0].text)
            if handles.isKnownRoot(path.root) {
                print(json(try context.inspection.evaluate(path)))
                return .ok
            }
        }
        // A lone built-in name that is also a verb needing arguments
        // (`provider`) is an inspection.
        let lone = binding == nil && tokens.count == 1 && !tokens[0].quoted && handles.isKnownRoot(tokens[0].text)
        if let (spec, used) = table.match(tokens), !(lone && spec.arguments.contains { !$0.optional }) {
            let invocation: Invocation
            do {
                invocation = try parse(spec, Array(tokens.dropFirst(used)), binding: binding, line: line)
            } catch {
                throw mistypedLongerVerb(than: spec, given: tokens.dropFirst(used).first) ?? error
            }
            if let binding {
                guard let kind = spec.makes else {
                    throw ScriptError(.wrongKind, "\(spec.name) makes no object to name: write it without \"\(binding) =\"")
                }
                handles.pendingBinding = (binding, kind.handlePrefix)
            }
            defer { handles.pendingBinding = nil }
            if !spec.keepsError { state.lastError = nil }
            let context = self.context
            do {
                switch try spec.run(context, invocation) {
                case .done: return .ok
                case .expectFailed: return .expectFailed
                case .quit: return .quit
                }
            } catch let error as ScriptError {
                throw error
            } catch {
                context.world.report(error)
            }
            return .ok
        }
        if binding == nil, tokens.count == 1, !tokens[0].quoted, PathExpression.looksLikePath(tokens[0].text) {
            let path = try PathExpression.parse(tokens[0].text)
            if handles.isKnownRoot(path.root) {
                let inspection = context.inspection
                inspection.show(try inspection.evaluate(path))
                return .ok
            }
        }
        let word = tokens[0].text
        if binding == nil, tokens.count == 1, PathExpression.looksLikePath(word) {
            let candidates = table.verbWords + handles.roots
            throw ScriptError(.unknownVerb, "unknown verb or handle \"\(word)\"\(Suggestion.hint(for: word, in: candidates))")
        }
        if let group = table.specs.first(where: { $0.words.first == word }) {
            let subverbs = table.specs.filter { $0.words.first == word && $0.words.count > 1 }.map { $0.words[1] }
            if !subverbs.isEmpty {
                let given = tokens.count > 1 ? tokens[1].text : ""
                throw ScriptError(
                    .missingArgument,
                    "\(group.words[0]) needs one of \(subverbs.joined(separator: ", "))\(given.isEmpty ? "" : ", got \"\(given)\"")\(Suggestion.hint(for: given, in: subverbs))"
                )
            }
        }
        throw ScriptError(
            .unknownVerb,
            "unknown verb \"\(word)\"\(Suggestion.hint(for: word, in: table.verbWords + table.specs.map(\.name))); type help for the list")
    }

    /// `clock advnce 1s` matches `clock`, which takes no arguments: when the
    /// line does not fit the shorter verb, a word close to one that makes a
    /// longer verb (`clock advance`) is the likelier mistake.
    private func mistypedLongerVerb(than spec: CommandSpec, given: Token?) -> ScriptError? {
        guard let given, !given.quoted else { return nil }
        let depth = spec.words.count
        let longer = table.specs.filter { $0.words.count > depth && Array($0.words.prefix(depth)) == spec.words }.map { $0.words[depth] }
        guard let word = Suggestion.closest(to: given.text, in: longer) else { return nil }
        return ScriptError(.unknownVerb, "unknown verb \"\(spec.name) \(given.text)\" (did you mean \(spec.name) \(word)?)")
    }

    /// The values `line` gives to arguments the command table marks secret
    /// (W6), for the redactor to replace wherever they show up, from this
    /// line on: an argument (`server app new KEY`) has no option name for
    /// the redactor's pattern to find (a secret option's value it finds
    /// itself). Empty for a line that does not parse.
    func secrets(in line: String) -> [String] {
        let verb = line.drop { $0 == " " || $0 == "\t" }.prefix { $0 != " " && $0 != "\t" }
        guard table.secretArgumentVerbs.contains(String(verb)), let tokens = try? Tokenizer.tokenize(line),
            let (spec, used) = table.match(tokens),
            let invocation = try? parse(spec, Array(tokens.dropFirst(used)), binding: nil, line: line)
        else { return [] }
        // A placeholder (`<secret#2>`, from an exported transcript) is kept
        // as it is, as a secret option's is.
        return zip(invocation.arguments, spec.arguments).filter { $1.secret && !$0.text.isEmpty && !$0.text.hasPrefix("<") }
            .map { $0.0.text }
    }

    /// Checks arguments and options against the spec (``CommandSpec/parse(_:binding:line:handles:)``).
    func parse(_ spec: CommandSpec, _ tokens: [Token], binding: String?, line: String) throws(ScriptError) -> Invocation {
        try spec.parse(tokens, binding: binding, line: line, handles: handles)
    }
}
