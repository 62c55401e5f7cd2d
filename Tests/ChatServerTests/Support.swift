import AsyncHTTPClient
import ChatSDK
import ChatSDKNetwork
import ChatServer
import ChatTestSupport
import Foundation
import Synchronization
import Testing

/// A server started in-process on a free port, with a database in a
/// temporary folder, removed once no server holds it.
struct TestServer {
    let server: ChatServer
    let running: ChatServer.Running
    /// Where the database is: a second server started in it finds the first's data.
    let folder: TemporaryFolder

    var databasePath: String { folder.url.appendingPathComponent("server.sqlite").path }
    var baseURL: String { running.baseURL }
    var port: Int { running.port }

    static func start(in folder: TemporaryFolder? = nil, port: Int = 0, idleTimeout: Duration? = nil) async throws -> TestServer {
        let folder = try folder ?? TemporaryFolder()
        let path = folder.url.appendingPathComponent("server.sqlite").path
        var configuration = ChatServer.Configuration(port: port, databasePath: path)
        configuration.logger.logLevel = .warning
        if let idleTimeout { configuration.idleTimeout = idleTimeout }
        let server = try ChatServer(configuration: configuration)
        return TestServer(server: server, running: try await server.start(), folder: folder)
    }

    func stop() async { await running.stop() }

    var app: AppBackendClient {
        AppBackendClient(baseURL: baseURL, apiKey: ChatServer.demoApiKey, secret: ChatServer.demoSecret)
    }

    /// A client of the demo app on this server (or through `transport`), with an in-memory cache.
    func makeClient(deviceId: String = "device-1", transport: HTTPTransport? = nil) -> ChatClient {
        var configuration = ChatClient.Configuration(
            apiKey: ChatServer.demoApiKey, transport: transport ?? HTTPTransport(baseURL: baseURL),
            runtime: RealTimeRuntime())
        configuration.cacheMode = .memory
        configuration.deviceId = deviceId
        return ChatClient(configuration: configuration, tokenProvider: app.tokenProvider)
    }
}

struct TimedOut: Error, CustomStringConvertible {
    var what: String
    var description: String { "timed out waiting for \(what)" }
}

/// Polls `condition` every 10 ms until it holds or `timeout` passes.
func eventually(_ what: String, timeout: Duration = .seconds(15), _ condition: @Sendable () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(10))
    }
    throw TimedOut(what: what)
}

/// Consumes a watcher in the background and keeps its latest response.
final class Probe<Value: Sendable>: Sendable {
    final class State: Sendable {
        let value = Mutex<(latest: Response<Value>?, count: Int, error: (any Error)?)>((nil, 0, nil))
    }

    private let state = State()
    private let task: Task<Void, Never>

    init(_ watcher: Watcher<Value>) {
        let state = self.state
        task = Task {
            do {
                for try await response in watcher {
                    state.value.withLock {
                        $0.latest = response
                        $0.count += 1
                    }
                }
            } catch {
                state.value.withLock { $0.error = error }
            }
        }
    }

    var latest: Response<Value>? { state.value.withLock { $0.latest } }
    var emissions: Int { state.value.withLock { $0.count } }

    /// Waits until the latest response satisfies `predicate`; returns it.
    @discardableResult
    func wait(_ what: String, timeout: Duration = .seconds(15), until predicate: @escaping @Sendable (Response<Value>) -> Bool) async throws
        -> Response<Value>
    {
        try await eventually(what, timeout: timeout) {
            if let error = self.state.value.withLock({ $0.error }) { throw error }
            return self.latest.map(predicate) ?? false
        }
        return latest!
    }

    func cancel() { task.cancel() }
}

/// A raw HTTP exchange, for the API-level tests.
struct HTTPResult {
    var status: Int
    var body: Data
    var headers: [String: String]

    var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] }
    /// The error code of a JSON error body.
    var code: String? { json?["code"] as? String }
    var isJSONError: Bool { code != nil && json?["message"] is String }
}

func http(_ method: String, _ url: String, headers: [String: String] = [:], body: String? = nil) async throws -> HTTPResult {
    try await http(method, url, headers: headers, data: body.map { Data($0.utf8) })
}

func http(_ method: String, _ url: String, headers: [String: String] = [:], data: Data?) async throws -> HTTPResult {
    var request = HTTPClientRequest(url: url)
    request.method = .init(rawValue: method)
    for (name, value) in headers { request.headers.add(name: name, value: value) }
    if let data {
        if !headers.keys.contains(where: { $0.lowercased() == "content-type" }) {
            request.headers.add(name: "Content-Type", value: "application/json")
        }
        request.body = .bytes(data)
    }
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
    let body = try await response.body.collect(upTo: 8 << 20)
    var fields: [String: String] = [:]
    for header in response.headers { fields[header.name.lowercased()] = header.value }
    return HTTPResult(status: Int(response.status.code), body: Data(body.readableBytesView), headers: fields)
}
