import ChatBackend
import ChatCore
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOWebSocket
import Synchronization

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
        let limits = configuration.streamQueue
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
                    outbound: LoggedOutbound(outbound: outbound, log: log), channel: context.requestContext.channel,
                    limits: limits, logger: context.logger)
            })
        return router
    }

    /// One event stream: the catch-up, then new events, through a queue
    /// bounded by ``EventStreamBudget`` (the backend reads the catch-up a
    /// page at a time and waits while the queue is full; a client that
    /// reads nothing is closed as a slow consumer), until the client
    /// leaves or the server closes it (``RealtimeHub/Close``).
    private static func stream(
        backend: Backend, hub: RealtimeHub, request: Request, inbound: WebSocketInboundStream,
        outbound: LoggedOutbound, channel: any Channel, limits: EventStreamBudget.Limits, logger: Logger
    ) async throws {
        let credentials = try realtimeCredentials(request)
        let after = try afterUserSeq(request)
        // Events up to the newest stored now are the catch-up (none without `after`).
        let (userId, catchUpThrough) = await BackendThread.run { () -> (String?, Int64) in
            let userId = backend.userId(ofAccessToken: credentials.accessToken ?? "")
            return (userId, after == nil ? 0 : backend.latestUserSeq(userId: userId ?? ""))
        }
        let budget = SharedEventStreamBudget(EventStreamBudget(limits: limits, catchUpThrough: catchUpThrough))
        let (frames, continuation) = AsyncStream<QueuedFrame>.makeStream()
        let (closes, closer) = AsyncStream<RealtimeHub.Close>.makeStream()
        // When the backend ends the subscription (logout, revoked tokens, a
        // merged user), the stream closes with the reason.
        let result = await BackendThread.run {
            backend.subscribeWithBackpressure(
                apiKey: credentials.apiKey, accessToken: credentials.accessToken ?? "", afterUserSeq: after,
                offer: { event in
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.sortedKeys]
                    let text = (try? encoder.encode(event)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
                    let size = text.utf8.count
                    switch budget.withLock({ $0.offer(userSeq: event.userSeq, size: size) }) {
                    case .take:
                        continuation.yield(QueuedFrame(text: text, size: size))
                        return true
                    case .hold:
                        return false
                    case .overflow:
                        closer.yield(.slowConsumer(frames: budget.withLock { $0.frames }))
                        closer.finish()
                        return false
                    }
                },
                onClose: { error in
                    closer.yield(.goingAway(error.message))
                    closer.finish()
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
        let connection = hub.register(apiKey: credentials.apiKey, userId: userId, close: closer)
        logger.info("events: open", metadata: ["after": "\(after.map(String.init) ?? "latest")"])
        defer {
            backend.unsubscribe(subscription)
            hub.remove(connection)
            continuation.finish()
            closer.finish()
            logger.info("events: closed")
        }
        // Subscribed: the client may count on every event from now on.
        try await outbound.write(String(decoding: try JSONEncoder().encode(HTTPWire.ReadyFrame()), as: UTF8.self))
        try await withThrowingTaskGroup(of: RealtimeHub.Close?.self) { group in
            // The client's side: it sends nothing we use; its end ends the stream.
            group.addTask {
                for try await _ in inbound {}
                return nil
            }
            group.addTask {
                for await frame in frames {
                    guard !budget.isClosing else { break }
                    try await outbound.write(frame.text)
                    if budget.withLock({ $0.sent(size: frame.size) }) {
                        // Room again: the backend reads on (the next page of a catch-up).
                        await BackendThread.run { backend.resume(subscription) }
                    }
                }
                return nil
            }
            // The server's side: a close asked for (by the backend, the hub,
            // the budget) ends the stream even while a write waits for a
            // client that does not read.
            group.addTask {
                for await close in closes { return close }
                return nil
            }
            guard let close = try await group.next() ?? nil else {
                group.cancelAll()
                return
            }
            budget.isClosing = true
            if channel.isWritable {
                group.cancelAll()
                try? await outbound.writer.close(WebSocketErrorCode(codeNumber: Int(close.code)), reason: close.reason)
                return
            }
            // A write waits for a client that does not read. Cancelling it
            // would end the connection's output with no close frame: the
            // close frame goes behind what is queued instead, and the stream
            // ends when the client has read it and closed, or 30 s later.
            Self.queueCloseFrame(close, on: channel)
            channel.eventLoop.scheduleTask(in: .seconds(30)) { channel.close(promise: nil) }
            while true {
                do {
                    guard try await group.next() != nil else { break }
                } catch {
                    continue
                }
            }
        }
    }

    /// Puts a close frame on the connection behind what is already queued
    /// there, past the stream's writer (which waits for room).
    private static func queueCloseFrame(_ close: RealtimeHub.Close, on channel: any Channel) {
        var data = channel.allocator.buffer(capacity: 2 + close.reason.utf8.count)
        data.write(webSocketErrorCode: WebSocketErrorCode(codeNumber: Int(close.code)))
        data.writeString(close.reason)
        channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .connectionClose, data: data), promise: nil)
    }
}

/// An event's JSON text, waiting to be written.
struct QueuedFrame: Sendable {
    var text: String
    var size: Int
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
