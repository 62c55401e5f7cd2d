import NIOCore
import NIOPosix
import Synchronization

/// A TCP proxy on loopback whose open connections can be made to go silent:
/// from ``silenceOpenConnections()`` on, their bytes are dropped in both
/// directions and nothing is closed, the half-open path that a NAT's
/// timeout or a peer gone without a word leaves behind. Connections opened
/// afterwards are forwarded as usual.
final class SilentProxy: Sendable {
    /// Whether one proxied connection still forwards.
    final class Gate: Sendable {
        private let open = Atomic<Bool>(true)
        var isOpen: Bool { open.load(ordering: .relaxed) }
        func close() { open.store(false, ordering: .relaxed) }
    }

    let port: Int
    private let listener: any Channel
    private let registry: Registry

    var baseURL: String { "http://127.0.0.1:\(port)" }

    private init(listener: any Channel, registry: Registry) {
        self.listener = listener
        self.port = listener.localAddress?.port ?? 0
        self.registry = registry
    }

    /// Listens on a free loopback port and forwards to `upstreamPort`.
    static func start(upstreamPort: Int) async throws -> SilentProxy {
        let registry = Registry()
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { inbound in
                ClientBootstrap(group: inbound.eventLoop)
                    .connect(host: "127.0.0.1", port: upstreamPort)
                    .flatMapThrowing { outbound in
                        let gate = registry.add()
                        try inbound.pipeline.syncOperations.addHandler(Forwarder(partner: outbound, gate: gate))
                        try outbound.pipeline.syncOperations.addHandler(Forwarder(partner: inbound, gate: gate))
                    }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return SilentProxy(listener: listener, registry: registry)
    }

    /// Stops forwarding on every connection open now, without closing any.
    func silenceOpenConnections() {
        registry.gates.withLock { gates in for gate in gates { gate.close() } }
    }

    func stop() async {
        try? await listener.close()
    }

    /// The gates of the connections opened so far.
    private final class Registry: Sendable {
        let gates = Mutex<[Gate]>([])
        func add() -> Gate {
            let gate = Gate()
            gates.withLock { $0.append(gate) }
            return gate
        }
    }

    /// Writes what one side reads to the other, while its gate is open; an
    /// end on one side ends the other.
    private final class Forwarder: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let partner: any Channel
        let gate: Gate

        init(partner: any Channel, gate: Gate) {
            self.partner = partner
            self.gate = gate
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard gate.isOpen else { return }
            partner.writeAndFlush(unwrapInboundIn(data), promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            partner.close(promise: nil)
            context.fireChannelInactive()
        }
    }
}
