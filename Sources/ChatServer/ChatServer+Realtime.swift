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
    /// happen. A refused upgrade falls through to the HTTP route, which
    /// answers 401 with a JSON body.
    func makeWebSocketRouter() -> Router<BasicWebSocketRequestContext> {
        let router = Router(context: BasicWebSocketRequestContext.self)
        let backend = self.backend
        let hub = self.hub
        router.ws("/v1/events", shouldUpgrade: { request, _ in
            let credentials = try Self.realtimeCredentials(request)
            _ = try Self.afterUserSeq(request)
            // Check the token now, so that a refused client gets an HTTP
            // answer rather than an upgrade followed by a close.
            switch backend.subscribe(apiKey: credentials.apiKey, accessToken: credentials.accessToken ?? "", afterUserSeq: nil, sink: { _ in }) {
            case .failure(let error): throw error
            case .success(let id): backend.unsubscribe(id)
            }
            return .upgrade([:])
        }, onUpgrade: { inbound, outbound, context in
            try await Self.stream(backend: backend, hub: hub, request: context.request, inbound: inbound, outbound: outbound, logger: context.logger)
        })
        return router
    }

    private static func stream(backend: Backend, hub: RealtimeHub, request: Request, inbound: WebSocketInboundStream,
                               outbound: WebSocketOutboundWriter, logger: Logger) async throws {
        let credentials = try realtimeCredentials(request)
        let after = try afterUserSeq(request)
        let (frames, continuation) = AsyncStream<RealtimeHub.Frame>.makeStream()
        // When the backend ends the subscription (logout, revoked tokens, a
        // merged user), the stream closes with the reason.
        let result = await BackendThread.run {
            backend.subscribe(apiKey: credentials.apiKey, accessToken: credentials.accessToken ?? "", afterUserSeq: after,
                              sink: { event in continuation.yield(.event(event)) },
                              onClose: { error in
                                  continuation.yield(.close(reason: error.message))
                                  continuation.finish()
                              })
        }
        let subscription: SubscriptionID
        switch result {
        case .failure(let error):
            try await outbound.close(.policyViolation, reason: error.code.rawValue)
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
        try await outbound.writeTextMessage(String(decoding: try JSONEncoder().encode(HTTPWire.ReadyFrame()), as: UTF8.self))
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
                        try await outbound.writeTextMessage(String(decoding: try encoder.encode(event), as: UTF8.self))
                    case .close(let reason):
                        return reason
                    }
                }
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            if let reason = first {
                try? await outbound.close(.goingAway, reason: reason)
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
