import ChatCore
import ChatSDK
import ChatSimulation

extension Interpreter {
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
            if let watcher = try? watcher(handle) {
                condition = { watcher.state != "refreshing" }
                what = "\(watcher.handle) to be done refreshing"
                outcome = { watcher.state }
            } else {
                let message = try message(handle)
                condition = { [.sent, .failed].contains(message.latest?.state.kind) }
                what = "\(message.handle) to be done (sent or failed)"
                outcome = { message.latest?.state.name ?? "?" }
            }
        } else if kind == "emits" {
            let value = value!
            let watcher = try watcher(handle)
            guard let count = Int(value), count >= 0 else {
                throw ScriptError(.badValue, "wait \(handle) emits needs a whole number, got \"\(value)\"")
            }
            condition = { watcher.emissions.count >= count }
            what = "\(watcher.handle) to emit \(count) time\(count == 1 ? "" : "s")"
        } else {
            let value = value!
            let message = try message(handle)
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
        let started = world.now
        let deadline = started + limit
        world.runUntilIdle()
        while !condition() {
            guard !world.interruption.isRequested else { return .done }
            guard world.step(until: deadline) else {
                if world.isEmbedded, world.now < deadline { try? world.advance(by: deadline - world.now) }
                lastError = ChatError(ChatError.Code(rawValue: "waitTimedOut"), "\(what) did not happen within \(Format.duration(limit))")
                let failure = "gave up waiting for \(what) after \(Format.duration(world.now - started))"
                stepFailure = failure
                printAfterEvents("wait failed: \(failure)", as: .failure)
                return .expectFailed
            }
        }
        printAfterEvents("waited \(Format.duration(world.now - started)) for \(what)\(outcome.map { ": \($0())" } ?? "")")
        return .done
    }

    /// `settle`: runs in-flight work and recovery, and says how far the
    /// clock moved and for what.
    func settle() {
        let started = world.now
        let reasons = world.settle()
        guard !world.interruption.isRequested else { return }
        var text = "settled after \(Format.duration(world.now - started))"
        if !reasons.isEmpty { text += ": " + reasons.joined(separator: ", ") }
        printAfterEvents(text)
    }

    /// What `clock.timers` and `inspect clock` list: every pending wake-up,
    /// with when it is due, its kind and what it is for.
    func describeWakeUps() -> [String] {
        world.pendingWakeUps.map { wakeUp in
            let due = wakeUp.time - world.now
            return
                "\(EventLog.stamp(wakeUp.time, since: start)) in \(Format.duration(due)) \(wakeUp.kind.category.rawValue): \(wakeUp.kind.purpose)"
        }
    }
}
