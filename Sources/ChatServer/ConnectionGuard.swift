import ChatCore
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

/// The server's open TCP connections, so that a shutdown can close those
/// left open when its grace period ends, and so that a refused WebSocket
/// upgrade can be answered with a JSON body on its own connection.
final class ConnectionRegistry: Sendable {
    private struct Entry {
        var channel: any Channel
        var refusal: WireError?
    }

    private let entries = Mutex<[ObjectIdentifier: Entry]>([:])

    func add(_ channel: any Channel) {
        entries.withLock { $0[ObjectIdentifier(channel)] = Entry(channel: channel) }
    }

    func remove(_ channel: any Channel) {
        _ = entries.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    var count: Int { entries.withLock { $0.count } }

    /// Records why an upgrade on `channel` is refused: the answer written on
    /// that connection becomes this error's JSON (see ``ConnectionGuardHandler``).
    func refuseUpgrade(on channel: any Channel, with error: WireError) {
        entries.withLock { $0[ObjectIdentifier(channel)]?.refusal = error }
    }

    func takeRefusal(of channel: any Channel) -> WireError? {
        entries.withLock { entries in
            let refusal = entries[ObjectIdentifier(channel)]?.refusal
            entries[ObjectIdentifier(channel)]?.refusal = nil
            return refusal
        }
    }

    /// Closes every connection still open (the shutdown's grace period is over).
    func closeAll() {
        let channels = entries.withLock { $0.values.map(\.channel) }
        for channel in channels { channel.close(promise: nil) }
    }
}

/// A complete HTTP/1.1 answer, written as bytes when no HTTP codec can be
/// trusted any more (a malformed request, a refused upgrade): a JSON error
/// body, then the connection closes.
enum RawHTTPAnswer {
    static func bytes(_ error: WireError, allocator: ByteBufferAllocator) -> ByteBuffer {
        let status = APIError.status(for: error.code)
        let body = (try? JSONBody.encoder.encode(error)) ?? Data()
        var buffer = allocator.buffer(capacity: body.count + 160)
        buffer.writeString("HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\n")
        buffer.writeString("content-type: application/json; charset=utf-8\r\ncontent-length: \(body.count)\r\nconnection: close\r\n\r\n")
        buffer.writeBytes(body)
        return buffer
    }
}

/// First in every connection's pipeline (raw bytes): closes a connection
/// idle for the idle timeout (no request in flight), closes idle
/// connections at once when the server starts shutting down, registers the
/// connection for the end of the shutdown's grace period, and rewrites the
/// body-less answer Hummingbird gives a refused WebSocket upgrade into the
/// JSON error the refusal recorded.
final class ConnectionGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let registry: ConnectionRegistry
    /// Bytes came in since the last answer went out: a request is in flight.
    private var awaitingAnswer = false
    private var quiescing = false
    private var firstWrite = true
    /// After a refusal's answer, the rest of Hummingbird's answer is dropped.
    private var discardingWrites = false
    private var pendingClose: Scheduled<Void>?
    /// This handler's place in the pipeline, for ``answerAndClose(_:)``.
    private var context: ChannelHandlerContext?

    init(registry: ConnectionRegistry) {
        self.registry = registry
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        registry.add(context.channel)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        registry.remove(context.channel)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        awaitingAnswer = true
        pendingClose?.cancel()
        pendingClose = nil
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if discardingWrites {
            promise?.succeed()
            return
        }
        awaitingAnswer = false
        if firstWrite {
            firstWrite = false
            // Only the first request of a connection may ask for an upgrade.
            if let refusal = registry.takeRefusal(of: context.channel) {
                discardingWrites = true
                promise?.succeed()
                answerAndClose(RawHTTPAnswer.bytes(refusal, allocator: context.channel.allocator))
                return
            }
        }
        context.write(data, promise: promise)
        if quiescing { closeSoonIfIdle(context: context) }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent {
            quiescing = true
            if !awaitingAnswer {
                context.close(promise: nil)
                return
            }
        } else if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read {
            // Nothing read for the idle timeout: close, unless an answer is
            // still being worked on (its request was read in full).
            if !awaitingAnswer {
                context.close(promise: nil)
                return
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// During a shutdown, a connection whose answer went out closes once
    /// nothing more is written for a moment (an answer is several writes).
    private func closeSoonIfIdle(context: ChannelHandlerContext) {
        pendingClose?.cancel()
        let channel = context.channel
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        pendingClose = context.eventLoop.scheduleTask(in: .milliseconds(100)) {
            guard !handler.value.awaitingAnswer else { return }
            channel.close(promise: nil)
        }
    }

    /// Writes bytes as they are and closes: the answer to a request the
    /// HTTP decoder could not read.
    func answerAndClose(_ bytes: ByteBuffer) {
        guard let context else { return }
        discardingWrites = true
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(bytes)).whenComplete { _ in channel.close(promise: nil) }
    }
}

/// Just after the HTTP decoder: a request it cannot parse (a bad request
/// line, a TLS ClientHello, header fields over the limit) is answered
/// `400 badRequest` or `431 headersTooLarge` with a JSON body, and the
/// connection closes.
final class ProtocolErrorHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart

    private let front: ConnectionGuardHandler
    private var answered = false

    init(front: ConnectionGuardHandler) {
        self.front = front
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        guard !answered else { return }
        answered = true
        let wire: WireError =
            switch parserError {
            case .headerOverflow:
                WireError(.headersTooLarge, "The request's header fields are larger than \(ChatServer.maxHeaderBytes) bytes")
            default: WireError(.badRequest, "The request is not valid HTTP/1.1")
            }
        front.answerAndClose(RawHTTPAnswer.bytes(wire, allocator: context.channel.allocator))
    }
}
