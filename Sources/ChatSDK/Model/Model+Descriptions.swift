/// The model types print on one line, for logs and test failures: what an
/// app would want to read, not a dump of every field. Text is quoted and
/// escaped, so a message with a line break still prints on one line.
extension Message: CustomStringConvertible {
    /// `Message(m-1, in c-1, seq 3, user(alice), sent, text("hi"))`; no
    /// `seq` before the server has it.
    public var description: String {
        let seq = seq.map { "seq \($0), " } ?? ""
        let read = isReadByProvider ? ", read" : ""
        return "Message(\(id), in \(conversationId), \(seq)\(author), \(state), \(content)\(read))"
    }
}

extension Conversation: CustomStringConvertible {
    /// `Conversation(c-1, "Help", 3 messages, local, typing)`.
    public var description: String {
        var parts = [id]
        if let title { parts.append(title.debugDescription) }
        parts.append(messageCount == 1 ? "1 message" : "\(messageCount) messages")
        if isLocal { parts.append("local") }
        if providerTyping { parts.append("typing") }
        return "Conversation(\(parts.joined(separator: ", ")))"
    }
}

extension MessageContent: CustomStringConvertible {
    /// `text("hi")` or `image(image/png, 1200 bytes, "a.png")`.
    public var description: String {
        switch self {
        case .text(let text): "text(\(text.debugDescription))"
        case .attachment(let kind, let mimeType, let size, let fileName):
            "\(kind.rawValue)(\(mimeType), \(size) bytes\(fileName.map { ", \($0.debugDescription)" } ?? ""))"
        }
    }
}

extension MessageAuthor: CustomStringConvertible {
    /// `user(alice)`, `provider(agent)` or `system`.
    public var description: String {
        switch self {
        case .user(let id): "user(\(id))"
        case .provider(let name): "provider(\(name))"
        case .system: "system"
        }
    }
}
