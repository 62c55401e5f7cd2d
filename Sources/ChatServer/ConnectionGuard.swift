import ChatCore
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

/// The server's open TCP connections: admits each new one under the
/// connection caps (``ConnectionTable``), so that descriptors never run out,
/// closes those left open when a shutdown's grace period ends, and lets a
/// refused WebSocket upgrade be answered with a JSON body on its own
/// connection.
final class ConnectionRegistry: Sendable {
    private struct Entry {
        var channel: any Channel
        var refusal: WireError?
    }

    private struct State {
        var table: ConnectionTable<ObjectIdentifier>
        var entries: [ObjectIdentifier: Entry] = [:]
        /// Connections closed to make room, or refused, since the start.
        var evicted = 0
        var refused = 0
    }

    private let state: Mutex<State>

    init(limits: ConnectionTable<ObjectIdentifier>.Limits) {
        state = Mutex(State(table: ConnectionTable(limits: limits)))
    }

    var limits: ConnectionTable<ObjectIdentifier>.Limits { state.withLock { $0.table.limits } }

    /// Takes a new connection in, closing the slowest reading (or longest
    /// idle) one if the caps are reached (``ConnectionTable``'s order); false: every connection is
    /// busy and this one is to be closed at once.
    func admit(_ channel: any Channel) -> Bool {
        let address = channel.remoteAddress?.ipAddress ?? "?"
        let id = ObjectIdentifier(channel)
        let (admitted, victim): (Bool, (any Channel)?) = state.withLock { state in
            switch state.table.admit(id, address: address, now: Self.now) {
            case .admit:
                state.entries[id] = Entry(channel: channel)
                return (true, nil)
            case .admitClosing(let other):
                state.entries[id] = Entry(channel: channel)
                state.evicted += 1
                return (true, state.entries.removeValue(forKey: other)?.channel)
            case .refuse:
                state.refused += 1
                return (false, nil)
            }
        }
        victim?.close(promise: nil)
        return admitted
    }

    func set(_ channel: any Channel, _ phase: ConnectionTable<ObjectIdentifier>.Phase) {
        state.withLock { $0.table.set(ObjectIdentifier(channel), phase, now: Self.now) }
    }

    func received(_ channel: any Channel, bytes: Int) {
        state.withLock { $0.table.received(ObjectIdentifier(channel), bytes: bytes) }
    }

    func remove(_ channel: any Channel) {
        state.withLock { state in
            state.table.remove(ObjectIdentifier(channel))
            state.entries.removeValue(forKey: ObjectIdentifier(channel))
        }
    }

    var count: Int { state.withLock { $0.entries.count } }

    /// Connections closed to make room for new ones, and new ones refused.
    var pressure: (evicted: Int, refused: Int) { state.withLock { ($0.evicted, $0.refused) } }

    /// Records why an upgrade on `channel` is refused: the answer written on
    /// that connection becomes this error's JSON (see ``ConnectionGuardHandler``).
    func refuseUpgrade(on channel: any Channel, with error: WireError) {
        state.withLock { $0.entries[ObjectIdentifier(channel)]?.refusal = error }
    }

    func takeRefusal(of channel: any Channel) -> WireError? {
        state.withLock { state in
            let refusal = state.entries[ObjectIdentifier(channel)]?.refusal
            state.entries[ObjectIdentifier(channel)]?.refusal = nil
            return refusal
        }
    }

    /// Closes every connection still open (the shutdown's grace period is over).
    func closeAll() {
        let channels = state.withLock { $0.entries.values.map(\.channel) }
        for channel in channels { channel.close(promise: nil) }
    }

    private static var now: UInt64 { NIODeadline.now().uptimeNanoseconds }
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
/// idle for the idle timeout (no request in flight), closes one whose
/// request (head and body) is not read in full within the request timeout
/// of its first byte (however slowly the bytes come), closes idle
/// connections at once when the server starts shutting down, keeps the
/// connection's phase and how fast its request comes in the registry
/// (which closes the slowest reader, or the longest idle, when the caps
/// are reached), and rewrites the body-less answer
/// Hummingbird gives a refused WebSocket upgrade into the JSON error the
/// refusal recorded.
final class ConnectionGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let registry: ConnectionRegistry
    private let requestTimeout: TimeAmount
    /// Bytes came in since the last answer went out: a request is in flight.
    private var awaitingAnswer = false
    private var quiescing = false
    private var firstWrite = true
    /// After a refusal's answer, the rest of Hummingbird's answer is dropped.
    private var discardingWrites = false
    private var pendingClose: Scheduled<Void>?
    /// The request being read must be read in full by then.
    private var requestDeadline: Scheduled<Void>?
    private var phase = ConnectionTable<ObjectIdentifier>.Phase.opened
    /// This handler's place in the pipeline, for ``answerAndClose(_:)``.
    private var context: ChannelHandlerContext?

    /// The connection switched to the WebSocket protocol: what comes in
    /// are frames, no longer HTTP requests.
    var isUpgraded: Bool { phase == .stream }

    init(registry: ConnectionRegistry, requestTimeout: TimeAmount) {
        self.registry = registry
        self.requestTimeout = requestTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        requestDeadline?.cancel()
        requestDeadline = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        requestDeadline?.cancel()
        requestDeadline = nil
        registry.remove(context.channel)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        awaitingAnswer = true
        pendingClose?.cancel()
        pendingClose = nil
        if phase == .opened || phase == .idle { startReadingRequest(context: context) }
        // How fast the request comes decides which connection closes first
        // when the caps are reached (a slow reader before an upload in flow).
        if phase == .readingRequest { registry.received(context.channel, bytes: unwrapInboundIn(data).readableBytes) }
        context.fireChannelRead(data)
    }

    /// The first byte of a request: it has the request timeout to be read in full.
    private func startReadingRequest(context: ChannelHandlerContext) {
        setPhase(.readingRequest, channel: context.channel)
        requestDeadline?.cancel()
        let channel = context.channel
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        requestDeadline = context.eventLoop.scheduleTask(in: requestTimeout) {
            guard handler.value.phase == .readingRequest else { return }
            channel.close(promise: nil)
        }
    }

    /// The HTTP decoder read a whole request (see ``ProtocolErrorHandler``).
    func requestRead() {
        requestDeadline?.cancel()
        requestDeadline = nil
        guard let context, phase == .readingRequest else { return }
        setPhase(.answering, channel: context.channel)
    }

    private func setPhase(_ new: ConnectionTable<ObjectIdentifier>.Phase, channel: any Channel) {
        guard phase != new else { return }
        phase = new
        registry.set(channel, new)
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
            if Self.switchesProtocols(unwrapOutboundIn(data)) {
                requestDeadline?.cancel()
                requestDeadline = nil
                setPhase(.stream, channel: context.channel)
            }
        }
        // An answer going out ends its request (an early answer too: the rest
        // of its body, if it comes, starts a new deadline).
        if phase == .answering || phase == .readingRequest {
            requestDeadline?.cancel()
            requestDeadline = nil
            setPhase(.idle, channel: context.channel)
        }
        context.write(data, promise: promise)
        if quiescing { closeSoonIfIdle(context: context) }
    }

    private static let switchingProtocols = Array("HTTP/1.1 101".utf8)

    private static func switchesProtocols(_ bytes: ByteBuffer) -> Bool {
        bytes.readableBytesView.starts(with: switchingProtocols)
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

/// Just after the HTTP decoder: tells the connection's guard when a whole
/// request was read (which ends its request timeout); a request it cannot
/// parse (a bad request line, a TLS ClientHello, header fields over the
/// limit) is answered `400 badRequest` or `431 headersTooLarge` with a JSON
/// body, and the connection closes.
final class ProtocolErrorHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart

    private let front: ConnectionGuardHandler
    private var answered = false

    init(front: ConnectionGuardHandler) {
        self.front = front
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // After an upgrade the HTTP decoder is gone and raw bytes pass here
        // on their way to the WebSocket decoder.
        if !front.isUpgraded, case .end = unwrapInboundIn(data) { front.requestRead() }
        context.fireChannelRead(data)
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
