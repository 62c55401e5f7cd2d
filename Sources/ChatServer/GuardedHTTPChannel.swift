import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1.1 + WebSocket upgrade channel with the server's
/// connection guards in front (see ``ConnectionGuardHandler`` and
/// ``ProtocolErrorHandler``): the connection caps (a connection over them
/// is closed before anything is read), an idle timeout from the first byte
/// on, a deadline for each whole request, an answer to requests the HTTP
/// decoder cannot read, the registry a shutdown closes what is left through.
struct GuardedHTTPChannel: ServerChildChannel {
    typealias Value = HTTP1WebSocketUpgradeChannel.Value

    let base: HTTP1WebSocketUpgradeChannel
    let registry: ConnectionRegistry
    let idleTimeout: Duration
    let requestTimeout: Duration

    /// A connection closed at once because every connection is busy.
    struct Refused: Error {}

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        // Over the caps with nothing to close instead: closed before any
        // handler is set up (NIO drops a connection whose set-up failed).
        guard registry.admit(channel) else {
            channel.close(promise: nil)
            return channel.eventLoop.makeFailedFuture(Refused())
        }
        let registry = self.registry
        let idle = TimeAmount.nanoseconds(Int64(idleTimeout / .nanoseconds(1)))
        let request = TimeAmount.nanoseconds(Int64(requestTimeout / .nanoseconds(1)))
        return base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let front = ConnectionGuardHandler(registry: registry, requestTimeout: request)
            try pipeline.addHandlers([IdleStateHandler(readTimeout: idle), front], position: .first)
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(ProtocolErrorHandler(front: front), position: .after(decoder))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        var quieter = logger
        quieter.handler = ClosedBeforeRequestFilter(base: logger.handler)
        await base.handle(value: value, logger: quieter)
    }
}

/// Hummingbird logs, as an error, a connection that closes before its first
/// request was read ("Error handling upgrade result"): here that is the
/// guards closing an idle or malformed connection, or a shutdown closing an
/// idle one, on purpose. That message is dropped; everything else passes.
struct ClosedBeforeRequestFilter: LogHandler {
    var base: any LogHandler

    func log(event: LogEvent) {
        guard event.message.description != "Error handling upgrade result" else { return }
        base.log(event: event)
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }
}

/// The request context of the WebSocket router: Hummingbird's, plus the
/// connection, so that a refused upgrade can be answered on it.
struct EventsRequestContext: RequestContext, WebSocketRequestContext {
    var coreContext: CoreRequestContextStorage
    let webSocket: WebSocketHandlerReference<Self>
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        channel = source.channel
    }
}
