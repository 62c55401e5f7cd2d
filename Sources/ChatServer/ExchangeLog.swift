import Foundation
import Hummingbird
import Synchronization

/// A JSON-lines file of every answer the server gives: each HTTP response
/// (`{"method", "path", "status", "body"}`) and each event-stream frame
/// (`{"frame"}`), so that a test can check them against `docs/openapi.json`
/// (scripts/openapi_check.py, run on the conformance pass).
public final class ExchangeLog: Sendable {
    private let handle: Mutex<FileHandle>

    /// Appends to `path`, creating it if needed.
    public init(path: String) throws {
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        handle.seekToEndOfFile()
        self.handle = Mutex(handle)
    }

    func response(method: String, path: String, status: Int, body: ByteBuffer?) {
        append(["method": method, "path": path, "status": status, "body": body.map { String(buffer: $0) } ?? ""])
    }

    func frame(_ text: String) {
        append(["frame": text])
    }

    private func append(_ entry: [String: Any]) {
        guard var line = try? JSONSerialization.data(withJSONObject: entry, options: [.sortedKeys]) else { return }
        line.append(0x0A)
        handle.withLock { $0.write(line) }
    }
}

/// Logs each answer of the HTTP routes to an ``ExchangeLog``.
struct ExchangeLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let log: ExchangeLog

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        let method = request.method.rawValue
        let path = request.uri.path
        let status = Int(response.status.code)
        let log = self.log
        if response.body.contentLength == 0 {
            log.response(method: method, path: path, status: status, body: nil)
        } else {
            // The server's bodies are one buffer each.
            response.body = response.body.map { buffer in
                log.response(method: method, path: path, status: status, body: buffer)
                return buffer
            }
        }
        return response
    }
}
