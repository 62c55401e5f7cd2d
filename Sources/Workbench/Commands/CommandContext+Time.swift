import ChatCore
import ChatSDK
import ChatSimulation

extension CommandContext.World {
    /// How long `wait` runs the world before giving up, unless `--within` says.
    static let defaultWaitLimit: Duration = .seconds(3600)

    /// `wait HANDLE emits N | state S | done [--within D]`: fires wake-ups of
    /// every kind, in order, until the condition holds or `D` of virtual time
    /// has passed; giving up fails the step (a script exits 1). `done` is the
    /// end of what a command started with `&` began (issue 29): a message
    /// sent or failed, a watcher no longer refreshing.
    func wait(_ invocation: Invocation) throws -> CommandOutcome {
        let handle = invocation.argument(0)!
        let kind = invocation.argument(1)!
        let value = invocation.argument(2)
        if kind == "done", let value {
            throw ScriptError(.syntax, "wait \(handle) done takes no value, got \"\(value)\": write wait \(handle) done")
        }
        guard kind == "done" || value != nil else {
            let example = kind == "emits" ? "wait \(handle) emits 2" : "wait \(handle) state sent"
            throw ScriptError(.missingArgument, "wait \(handle) \(kind) needs a value, as in \(example)")
        }
        let limit = invocation.duration("--within") ?? Self.defaultWaitLimit
        let condition: () -> Bool
        let what: String
        var outcome: (() -> String)?
        if kind == "done" {
            if let watcher = try? handles.watcher(handle) {
                condition = { watcher.state != .live(.refreshing) }
                what = "\(watcher.handle) to be done refreshing"
                outcome = { watcher.state.name }
            } else {
                let message = try handles.message(handle)
                condition = { [.sent, .failed].contains(message.latest?.state.kind) }
                what = "\(message.handle) to be done (sent or failed)"
                outcome = { message.latest?.state.name ?? "?" }
            }
        } else if kind == "emits" {
            let value = value!
            let watcher = try handles.watcher(handle)
            guard let count = Int(value), count >= 0 else {
                throw ScriptError(.badValue, "wait \(handle) emits needs a whole number, got \"\(value)\"")
            }
            condition = { watcher.emissions.count >= count }
            what = "\(watcher.handle) to emit \(count) time\(count == 1 ? "" : "s")"
        } else {
            let value = value!
            let message = try handles.message(handle)
            let states = SendState.Kind.allCases.map(\.rawValue)
            guard let kind = SendState.Kind(rawValue: value) else {
                throw ScriptError(
                    .badValue,
                    "a message state is one of \(states.joined(separator: ", ")), got \"\(value)\"\(Suggestion.hint(for: value, in: states))"
                )
            }
            condition = { message.latest?.state.kind == kind }
            what = "\(message.handle) to be \(value)"
        }
        let started = stage.now
        let deadline = started + limit
        stage.runUntilIdle()
        while !condition() {
            guard !stage.interruption.isRequested else { return .done }
            guard stage.step(until: deadline) else {
                if stage.isEmbedded, stage.now < deadline { try? stage.advance(by: deadline - stage.now) }
                state.lastError = ChatError(
                    ChatError.Code(rawValue: "waitTimedOut"), "\(what) did not happen within \(Format.duration(limit))")
                let failure = "gave up waiting for \(what) after \(Format.duration(stage.now - started))"
                state.stepFailure = failure
                output.printAfterEvents("wait failed: \(failure)", as: .failure)
                return .expectFailed
            }
        }
        var line = StyledText("waited ")
        line.append(Format.duration(stage.now - started), as: .duration)
        line.append(" for \(what)\(outcome.map { ": \($0())" } ?? "")")
        output.printAfterEvents(line)
        return .done
    }

    /// `settle`: runs in-flight work and recovery, and says how far the
    /// clock moved and for what.
    func settle() {
        let started = stage.now
        let reasons = stage.settle()
        guard !stage.interruption.isRequested else { return }
        var line = StyledText("settled after ")
        line.append(Format.duration(stage.now - started), as: .duration)
        if !reasons.isEmpty { line.append(": " + reasons.joined(separator: ", "), as: .wakeUps) }
        output.printAfterEvents(line)
    }
}
