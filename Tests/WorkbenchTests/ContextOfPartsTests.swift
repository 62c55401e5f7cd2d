import ChatCore
import ChatSDK
import ChatSimulation
import Foundation
import Testing

@testable import Workbench

/// A command's context made of the session's parts, with no interpreter
/// (issue 29): an embedded stage, its objects (``SessionObjects``), its
/// settings (``SessionSettings``), an event log and the step's output.
/// What a handler does through it is what it does in a session.
final class ContextParts {
    let stage: EmbeddedStage
    let handles: SessionObjects
    let settings: SessionSettings
    let output = StepOutput()
    let log = EventLog()
    let cacheFolder: String
    /// The lines `run` would run as steps of their own.
    var linesRun: [String] = []
    private(set) var context: CommandContext!

    init(seed: UInt64 = 1) throws {
        stage = try EmbeddedStage(seed: seed, interruption: Interruption())
        handles = SessionObjects(stage: stage, start: stage.now)
        settings = SessionSettings(seed: seed)
        cacheFolder = FileManager.default.temporaryDirectory.appendingPathComponent("chatbench-parts-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: cacheFolder, withIntermediateDirectories: true)
        let log = self.log
        stage.onTrace { time, trace in log.append(time, WorldEvent(trace)) }
        context = CommandContext(
            stage: stage, handles: handles, state: settings, output: output, log: log, onlineEpoch: OnlineEpoch(),
            cacheFolder: cacheFolder, helpWidth: 80,
            runLine: { [unowned self] line in
                self.linesRun.append(line)
                return StepResult(output: "", status: .ok)
            })
        handles.current = context.world.makeClient(named: "client", cacheMode: .memory, apiKey: World.apiKey)
        stage.runUntilIdle()
    }

    deinit {
        let sdkClients = handles.clients.map(\.client)
        _ = stage.run { for client in sdkClients { await client.shutdown() } }
        stage.runUntilIdle()
        stage.stop()
        try? FileManager.default.removeItem(atPath: cacheFolder)
    }

    /// Parses `line` by the table against the parts' handles and runs its
    /// verb's handler, as a step does; the step's output is cleared first.
    @discardableResult
    func run(_ line: String) throws -> CommandOutcome {
        output.clear()
        let tokens = try Tokenizer.tokenize(line)
        let (spec, used) = try #require(CommandTable.standard.match(tokens))
        let invocation = try spec.parse(Array(tokens.dropFirst(used)), binding: nil, line: line, handles: handles)
        if !spec.keepsError { settings.lastError = nil }
        return try spec.run(context, invocation)
    }

    var printed: [String] { output.lines.map(\.text) + output.trailer.map(\.text) }
}

@Suite struct ContextOfPartsTests {
    @Test func clockAdvanceRunsOnAContextOfParts() throws {
        let parts = try ContextParts()
        let before = parts.stage.now
        #expect(try parts.run("clock advance 2s") == .done)
        #expect(parts.stage.now == before + .seconds(2))
        #expect(parts.printed == ["clock \(parts.stage.now) (2s since start)"])
    }

    /// `expect` checks a path through the inspection part; a failed one is
    /// a value, and says why in the session's settings.
    @Test func expectHoldsOrFailsOnAContextOfParts() throws {
        let parts = try ContextParts()
        #expect(try parts.run("expect clock.pending == 0") == .done)
        #expect(parts.printed == ["ok: clock.pending == 0"])
        #expect(try parts.run("expect error != none") == .expectFailed)
        #expect(parts.printed == ["expect failed: error != none — expected != none, found none"])
        #expect(parts.settings.stepFailure == "expected != none, found none")
        // A mistyped field is matched against the object's fields.
        let error = try #require(throws: ScriptError.self) { try parts.run("expect clock.pendng == 0") }
        #expect(error.message.hasPrefix("clock has no field \"pendng\" (did you mean pending?)"))
    }

    /// A user, a conversation, a message sent and the other side's answer:
    /// SDK calls through the world part, handles made in the session's
    /// objects, events in the log the parts were given.
    @Test func dataVerbsRunOnAContextOfParts() throws {
        let parts = try ContextParts()
        try parts.run("user set alice")
        try parts.run("start conversation --title Knee")
        #expect(parts.printed.first?.hasPrefix("c1 = conversation c-") == true)
        try parts.run("send c1 text hello")
        #expect(parts.printed == ["m1 = text message in c1"])
        try parts.run("settle")
        try parts.run("expect m1.state == sent")
        #expect(parts.printed == ["ok: m1.state == sent"])
        try parts.run("agent say c1 hi")
        #expect(parts.printed == ["m2 = agent message in c1"])
        #expect(parts.handles.objects["m2"]?.handle == "m2")
        let events = parts.log.take().map(\.text)
        #expect(events.contains("m1: sent"))
        try parts.run("inspect m1")
        #expect(parts.printed.first == "m1: text message \"hello\" by alice in c1, sent")
    }

    /// The session part changes the settings it was given and runs a
    /// script's lines through the line runner it was given.
    @Test func theSessionPartHoldsNoInterpreter() throws {
        let parts = try ContextParts()
        try parts.run("timing on")
        #expect(parts.settings.timing)
        try parts.run("net log on")
        #expect(parts.settings.showNetwork)
        let script = parts.cacheFolder + "/script.chat"
        try "> clock\n> expect error == none\n".write(toFile: script, atomically: true, encoding: .utf8)
        try parts.run("run \(script)")
        #expect(parts.linesRun == ["clock", "expect error == none"])
    }
}

/// An object's fields, summary and history read the rest of the session
/// through an ``InspectionScope``; a small one of the test's own will do.
final class NamesOnly: InspectionScope {
    let stage: any Stage
    let start: Instant
    var clients: [ClientObject] = []
    var named: [String: any Inspectable] = [:]
    var handlesByID: [String: String] = [:]

    init(stage: any Stage) {
        self.stage = stage
        start = stage.now
    }

    func object(named handle: String) -> (any Inspectable)? { named[handle] }
    func handle(forID id: String) -> String? { handlesByID[id] }
    func conversation(_ word: String) throws(ScriptError) -> ConversationObject {
        guard let object = named[word] as? ConversationObject else { throw ScriptError(.unknownHandle, "no conversation \(word)") }
        return object
    }
    func client(_ word: String) throws(ScriptError) -> ClientObject {
        guard let client = clients.first(where: { $0.name == word }) else { throw ScriptError(.unknownHandle, "no client \(word)") }
        return client
    }
}

@Suite struct InspectionScopeTests {
    @Test func aMessageNamesItsConversationThroughItsScope() throws {
        let parts = try ContextParts()
        let client = parts.handles.current!
        let registry = ObjectRegistry()
        let message = registry.addMessage(id: "m-1", conversationId: "c-1", client: client, handle: "m7", number: 7)
        message.latest = SeenMessage(author: .user(id: "alice"), content: .text("hi"), replyTo: nil, state: .sent, isReadByProvider: false)
        message.appendHistory(.sent, at: parts.stage.now + .milliseconds(1500))
        let scope = NamesOnly(stage: parts.stage)
        // Unnamed, the conversation is its id.
        #expect(try message.field("conversation", argument: nil, in: scope)?.value == .string("c-1"))
        #expect(message.summary(in: scope) == "m7: text message \"hi\" by alice in c-1, sent")
        // Named in the scope, it is the object.
        let conversation = ConversationObject(handle: "c3", id: "c-1", client: client)
        scope.named["c3"] = conversation
        scope.handlesByID["c-1"] = "c3"
        guard case .object(let found)? = try message.field("conversation", argument: nil, in: scope) else {
            Issue.record("conversation is not an object")
            return
        }
        #expect(found === conversation)
        #expect(message.summary(in: scope) == "m7: text message \"hi\" by alice in c3, sent")
        #expect(message.history(in: scope).map(\.text) == ["[00:00:01.500] sent"])
        #expect(message.history(in: scope).map { $0.styledParts.map(\.style) } == [[.time]])
        #expect(try message.field("state", argument: nil, in: scope)?.value == .string("sent"))
        #expect(try message.field("nope", argument: nil, in: scope) == nil)
    }

    @Test func aWatchersElementsAreTheObjectsItsScopeNames() throws {
        let parts = try ContextParts()
        let client = parts.handles.current!
        let watcher = WatcherObject(handle: "w1", target: .conversations, client: client)
        watcher.elements = ["c1", "c2"]
        let scope = NamesOnly(stage: parts.stage)
        let c2 = ConversationObject(handle: "c2", id: "c-2", client: client)
        scope.named["c2"] = c2
        #expect(try watcher.field("indexOf", argument: "c2", in: scope)?.value == .int(1))
        #expect(throws: ScriptError.self) { try watcher.field("indexOf", argument: "c1", in: scope) }
        guard case .list(let elements)? = try watcher.field("elements", argument: nil, in: scope) else {
            Issue.record("elements is not a list")
            return
        }
        #expect(elements.map(\.value) == [.string("c2")])
        #expect(watcher.summary(in: scope) == "w1: watch conversations — refreshing, not fresh, 2 held")
    }

    @Test func theClockReadsItsStageAndItsScopesStart() throws {
        let parts = try ContextParts()
        let scope = NamesOnly(stage: parts.stage)
        try parts.stage.advance(by: .seconds(3))
        let clock = ClockObject(world: parts.stage, start: scope.start)
        #expect(try clock.field("elapsed", argument: nil, in: scope)?.value == .string("3s"))
        #expect(clock.history(in: scope) == (scope.describeWakeUps().isEmpty ? [StyledText("none pending")] : scope.describeWakeUps()))
    }
}
