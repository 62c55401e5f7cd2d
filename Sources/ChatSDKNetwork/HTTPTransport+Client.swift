internal import ChatCore
import ChatSDK
import Foundation
import OpenAPIRuntime
import OpenAPIURLSession

/// The client generated from docs/openapi.json, over this transport's
/// URLSession, and what its failures become: the server's `WireError`, or
/// a `TransportError` saying whether the request or the answer failed.
extension HTTPTransport {
    /// Calls the generated client with `credentials`; `operation` names the
    /// call in errors.
    func call<Answer>(
        _ operation: String, with credentials: CredentialsMiddleware, _ send: (Client) async throws -> Answer
    ) async throws -> Answer {
        guard let serverURL = URL(string: baseURL), serverURL.scheme != nil, serverURL.host != nil else {
            throw TransportError(.failed, "The request to \(baseURL) failed: it is not an http://host:port address")
        }
        // Buffered on every platform: the SDK's bodies are small JSON (an
        // upload is one Data), and it is the one path FoundationNetworking
        // has, so the path Apple's platforms take is the one tested on Linux.
        let transport = URLSessionTransport(configuration: .init(session: session, httpBodyProcessingMode: .buffered))
        let api = Client(
            serverURL: serverURL, configuration: Self.apiConfiguration, transport: transport,
            middlewares: [
                DeadlineMiddleware(timeout: requestTimeout, baseURL: baseURL), credentials, ErrorAnswerMiddleware(),
            ])
        do {
            return try await send(api)
        } catch let error as ClientError {
            throw translate(error.underlyingError, answered: error.response != nil, operation: operation)
        } catch {
            throw translate(error, answered: true, operation: operation)
        }
    }

    /// Bodies as compact JSON with sorted keys, as the SDK sent them before
    /// the generated client (the runtime's default pretty-prints).
    static let apiConfiguration = Configuration(jsonEncodingOptions: [.sortedKeys])

    /// A failure of `operation` as the SDK's error: the server's `WireError`
    /// as it is; otherwise the request failed on the way, of the kind its
    /// error says (`kind(of:answered:)`), or its answer could not be read.
    func translate(_ error: any Error, answered: Bool, operation: String) -> any Error {
        switch error {
        case let error as WireError: error
        case let error as TransportError: error
        case is CancellationError: CancellationError()
        case let error as URLError where error.code == .cancelled && Task.isCancelled: CancellationError()
        default:
            switch Self.kind(of: error, answered: answered) {
            case .failed: TransportError(.failed, "The server's answer to \(operation) could not be read: \(error)")
            case let kind: TransportError(kind, "The request to \(baseURL) failed: \(Self.describe(error))")
            }
        }
    }
}
