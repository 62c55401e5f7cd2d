import ChatSDK
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Gives each request `timeout` to be answered, as a `timeout`
/// ``TransportError``, whatever the session's own timeouts: a transport's
/// `requestTimeout` holds with the shared session and with the app's own.
struct DeadlineMiddleware: ClientMiddleware {
    var timeout: Duration
    /// Named in the error.
    var baseURL: String

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let timeout = self.timeout
        let named = self.baseURL
        // The group waits for both of its tasks before it returns, so `next`
        // does not outlive this call.
        return try await withoutActuallyEscaping(next) { next in
            try await withThrowingTaskGroup(of: (HTTPResponse, HTTPBody?).self) { group in
                group.addTask { try await next(request, body, baseURL) }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    throw TransportError(.timeout, "The request to \(named) failed: no answer in \(timeout)")
                }
                defer { group.cancelAll() }
                // The first to finish: the answer, its failure, or the deadline.
                guard let first = try await group.next() else { throw CancellationError() }
                return first
            }
        }
    }
}
