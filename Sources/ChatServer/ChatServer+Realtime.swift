import ChatBackend
import ChatCore
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging

extension ChatServer {
    /// The WebSocket side: `GET /v1/events?after=N` upgrades when its
    /// credentials are good, then streams the user's events as JSON text
    /// frames, first those after `N` (catch-up), then new ones as they
    /// happen. A refused upgrade is answered 401 (credentials) or 400 (a
    /// bad `after`) with the JSON error, and the connection closes.
    func makeWebSocketRouter() -> Router<EventsRequestContext> {
        let router = Router(context: EventsRequestContext.self)
        let backend = self.backend
        let hub = self.hub
        let connections = self.connections
        let log = configuration.exchangeLog
        router.ws(
            "/v1/events",
            shouldUpgrade: { request, context in
                // Check the request now, so that a refused client gets an HTTP
                // answer (401 or 400 with the JSON error, written by the
                // connection's guard) rather than an upgrade followed by a close.
                do {
                    let credentials = try Self.realtimeCredentials(request)
                    _ = try Self.afterUserSeq(request)
                    switch backend.subscribe(
                        apiKey: credentials.apiKey, accessToken: credentials.accessToken ?? "", afterUserSeq: nil, sink: { _ in })
                    {
                    case .failure(let error): throw error
                    case .success(let id): backend.unsubscribe(id)
                    }
                } catch {
                    connections.refuseUpgrade(on: context.channel, with: error as? WireError ?? WireError(.badRequest))
                    return .dontUpgrade
                }
                return .upgrade([:])
            },
            onUpgrade: { inbound, outbound, context in
                try await Self.stream(
                    backend: backend, hub: hub, request: context.request, inbound: inbound,
                    outbound: LoggedOutbound(outbound: outbound, log: log), logger: context.logger)
            })
        return router
    }

    private static func stream(
        backend: Backend, hub: RealtimeHub, request: Request, inbound: WebSocketInboundStream,
        outbound: LoggedOutbound, logger: Logger
    ) async throws {
        let credentials = try realtimeCredentials(request)
        let after = try afterUserSeq(request)
        let (frames, continuation) = AsyncStream<RealtimeHub.Frame>.makeStream()
        // When the backend ends the subscription (logout, revoked tokens, a
        // merged user), the stream closes with the reason.
        let result = await BackendThread.run {
            backend.subscribe(
                apiKey: credentials.apiKey, accessToken: credentials.accessToken ?? "", afterUserSeq: after,
                sink: { event in continuation.yield(.event(event)) },
                onClose: { error in
                    continuation.yield(.close(reason: error.message))
                    continuation.finish()
                })
        }
        let subscription: SubscriptionID
        switch result {
        case .failure(let error):
            try await outbound.writer.close(.policyViolation, reason: error.code.rawValue)
            return
        case .success(let id):
            subscription = id
        }
        let connection = hub.register(apiKey: credentials.apiKey, continuation: continuation)
        if let userId = backend.userId(ofAccessToken: credentials.accessToken ?? "") { hub.setUser(userId, for: connection) }
        logger.info("events: open", metadata: ["after": "\(after.map(String.init) ?? "latest")"])
        defer {
            backend.unsubscribe(subscription)
            hub.remove(connection)
            continuation.finish()
            logger.info("events: closed")
        }
        // Subscribed: the client may count on every event from now on.
        try await outbound.write(String(decoding: try JSONEncoder().encode(HTTPWire.ReadyFrame()), as: UTF8.self))
        try await withThrowingTaskGroup(of: String?.self) { group in
            // The client's side: it sends nothing we use; its end ends the stream.
            group.addTask {
                for try await _ in inbound {}
                return nil
            }
            group.addTask {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                for await frame in frames {
                    switch frame {
                    case .event(let event):
                        try await outbound.write(String(decoding: try encoder.encode(event), as: UTF8.self))
                    case .close(let reason):
                        return reason
                    }
                }
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            if let reason = first {
                try? await outbound.writer.close(.goingAway, reason: reason)
            }
        }
    }
}

/// Logs each request: method, path (never the query, which may hold a
/// token), status and duration (swift-log, `info`).
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        let elapsed = ContinuousClock.now - start
        let micros = elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
        context.logger.info("\(request.method) \(request.uri.path) \(response.status.code) \(Double(micros) / 1000) ms")
        return response
    }
}

/// The event stream's writer, each text frame also going to the exchange log.
struct LoggedOutbound {
    let writer: WebSocketOutboundWriter
    let log: ExchangeLog?

    init(outbound: WebSocketOutboundWriter, log: ExchangeLog?) {
        writer = outbound
        self.log = log
    }

    func write(_ text: String) async throws {
        log?.frame(text)
        try await writer.writeTextMessage(text)
    }
}
