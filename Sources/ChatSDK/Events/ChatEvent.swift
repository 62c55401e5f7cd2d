/// Something the client wants its app to know about, in order.
public enum ChatEvent: Sendable, Hashable {
    case sessionChanged(SessionState)
    case connectionChanged(ConnectionState)
    /// The client carries on in a degraded way (e.g. without a disk cache).
    case warning(String)
}
