// diagnostics-story: a small app that sends a diagnostics file to support
// (issue 27 §5). It uses ChatSDK and ChatSDKNetwork's public API only, over
// real sockets, with the flight recorder on:
//
//   1. a customer signs in and asks about an order;
//   2. the server restarts: the app says so on standard output
//      (`story: restart the server now`) and waits for the file named by
//      --restarted to exist; while the server is away the customer asks again;
//   3. once the server is back the message goes out, and the other side
//      answers (the agent, through the app backend's route);
//   4. the app shuts its client down and writes its diagnostics file.
//
// It also writes every message state the app saw (`client.events()`), one
// `ID STATE` line each, so a test can check that the exported transcript
// takes the messages through the same states.
//
//   swift run diagnostics-story --server http://127.0.0.1:8080 --out ticket.sqlite \
//       --states states.txt --restarted /tmp/restarted
import ChatSDK
import ChatSDKNetwork
import Foundation

struct Options {
    var server = "http://127.0.0.1:8080"
    var out = "diagnostics-story.sqlite"
    var states = "diagnostics-story-states.txt"
    var restarted: String?
    var apiKey = "demo-key"
    var secret = "demo-secret-0123456789abcdef"

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { throw StoryError("\(flag) needs a value") }
            switch flag {
            case "--server": server = value
            case "--out": out = value
            case "--states": states = value
            case "--restarted": restarted = value
            default: throw StoryError("unknown option \(flag): use --server URL --out FILE --states FILE --restarted FILE")
            }
        }
    }
}

struct StoryError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Waits until `condition` holds, checking every 50 ms, for at most `seconds`.
func waitUntil(_ what: String, seconds: Double, _ condition: () async throws -> Bool) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while try await !condition() {
        guard Date() < deadline else { throw StoryError("gave up after \(seconds) s waiting for \(what)") }
        try await Task.sleep(for: .milliseconds(50))
    }
}

func say(_ line: String) {
    FileHandle.standardOutput.write(Data("story: \(line)\n".utf8))
}

func run(_ options: Options) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("diagnostics-story-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let app = AppBackendClient(baseURL: options.server, apiKey: options.apiKey, secret: options.secret)
    var configuration = ChatClient.Configuration(
        apiKey: options.apiKey, transport: .http(baseURL: options.server), runtime: .realTime())
    configuration.cacheMode = .memory
    configuration.diagnostics = ChatClient.Diagnostics(
        file: folder.appendingPathComponent("chat-diagnostics.sqlite").path, appName: "Diagnostics Story 1.0")
    configuration.diagnostics?.device = "diagnostics-story"
    let client = ChatClient(configuration: configuration, tokenProvider: app.tokenProvider)

    // What the app sees: every message state, in order.
    let seen = Seen()
    let events = client.events()
    let listener = Task {
        for await event in events {
            if case .messageStateChanged(let message) = event { await seen.add("\(message.id) \(message.state)") }
        }
    }

    let user = "customer-\(UUID().uuidString.prefix(8).lowercased())"
    try await client.setCurrentUser(userId: user)
    let conversation = try await client.startConversation(id: "order-4711", title: "Order 4711")
    let items = client.watchItems(ofConversationWithId: conversation.id)
    let latest = Latest()
    let watching = Task {
        do { for try await response in items { await latest.set(response.data.elements.map(\.state)) } } catch {}
    }
    say("signed in as \(user)")

    let first = try await client.sendMessage(.text("Where is my order?"), in: conversation.id)
    try await waitUntil("the first message to be sent", seconds: 20) { try await client.message(withId: first.id)?.state == .sent }
    say("sent \(first.id)")

    if let restarted = options.restarted {
        say("restart the server now")
        try await waitUntil("the server to go away", seconds: 20) { await client.connectionIsDown(app) }
        let second = try await client.sendMessage(.text("Hello? Is anyone there?"), in: conversation.id)
        say("asked again while the server was away: \(second.id) \(second.state)")
        try await waitUntil("\(restarted) (the server is back)", seconds: 60) { FileManager.default.fileExists(atPath: restarted) }
        try await waitUntil("the second message to be sent", seconds: 60) { try await client.message(withId: second.id)?.state == .sent }
        say("sent \(second.id) after the restart")
    }

    _ = try await app.agentSay("It ships tomorrow.", in: client.serverId(ofConversation: conversation.id))
    try await waitUntil("the agent's answer", seconds: 20) { await latest.count == (options.restarted == nil ? 2 : 3) }
    say("the agent answered")

    await client.shutdown()
    watching.cancel()
    listener.cancel()
    try? FileManager.default.removeItem(atPath: options.out)
    try client.exportDiagnostics(to: options.out)
    try (await seen.lines.joined(separator: "\n") + "\n").write(toFile: options.states, atomically: true, encoding: .utf8)
    say("wrote \(options.out)")
}

actor Seen {
    var lines: [String] = []
    func add(_ line: String) { lines.append(line) }
}

actor Latest {
    var states: [SendState] = []
    var count: Int { states.count }
    func set(_ states: [SendState]) { self.states = states }
}

extension ChatClient {
    /// Whether the server is unreachable: the app backend's route fails.
    fileprivate func connectionIsDown(_ app: AppBackendClient) async -> Bool {
        do {
            _ = try await app.issueTokens(userId: "probe")
            return false
        } catch {
            return true
        }
    }
}

do {
    try await run(try Options(Array(CommandLine.arguments.dropFirst())))
} catch {
    FileHandle.standardError.write(Data("diagnostics-story: \(error)\n".utf8))
    exit(1)
}
