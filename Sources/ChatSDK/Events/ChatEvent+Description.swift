extension ChatEvent: CustomStringConvertible {
    /// One line, for a log: the case and what it carries in short, e.g.
    /// `messageStateChanged(m-1c2d3e4f, sent)` or
    /// `authenticationFailed(expiredJWT: The JWT has expired)`.
    public var description: String {
        switch self {
        case .sessionChanged(let state): "sessionChanged(\(state))"
        case .connectionChanged(let state): "connectionChanged(\(state))"
        case .warning(let text): "warning(\(text.debugDescription))"
        case .authenticationFailed(let error): "authenticationFailed(\(error))"
        case .sessionWasRefreshed: "sessionWasRefreshed"
        case .sessionWasClosed: "sessionWasClosed"
        case .sessionDidHaveError(let error): "sessionDidHaveError(\(error))"
        case .messageStateChanged(let message): "messageStateChanged(\(message.id), \(message.state))"
        }
    }
}
