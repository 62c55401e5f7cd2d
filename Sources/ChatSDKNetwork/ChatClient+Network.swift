import ChatSDK
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ChatClient.Transport {
    /// Requests over HTTP (URLSession) and the event stream over a
    /// WebSocket, to the chatbench server at `baseURL` (`http://host:port`).
    ///
    /// ```swift
    /// let client = ChatClient(
    ///     configuration: .init(apiKey: "demo-key", transport: .http(baseURL: "http://127.0.0.1:8080"), runtime: .realTime()),
    ///     tokenProvider: myProvider)
    /// ```
    ///
    /// - Parameters:
    ///   - session: The URLSession requests go through; by default one
    ///     shared by every transport, which keeps no cookies or cache and
    ///     fails a request at once when the server cannot be reached (the
    ///     SDK has its own retry policy).
    ///   - requestTimeout: Longest wait for one request's answer.
    ///   - keepAlive: How often the event stream is pinged. A ping not
    ///     answered by the next one means the connection is dead: the stream
    ///     closes, and the SDK reconnects and catches up as after any cut.
    public static func http(
        baseURL: String, session: URLSession? = nil, requestTimeout: Duration = .seconds(30), keepAlive: Duration = .seconds(30)
    ) -> Self {
        Self(
            HTTPTransport(
                baseURL: baseURL, session: session ?? HTTPTransport.defaultSession, requestTimeout: requestTimeout, keepAlive: keepAlive))
    }
}

extension ChatClient.Runtime {
    /// Real time: the system clock, system randomness, and a new serial
    /// dispatch queue named `label` that the client's work runs on.
    public static func realTime(label: String = "chatbench.client") -> Self {
        Self(RealTimeRuntime(label: label))
    }
}
