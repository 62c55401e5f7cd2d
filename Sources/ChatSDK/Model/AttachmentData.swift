import Foundation

/// An attachment's bytes as ``ChatClient/data(for:)`` gives them (D6): the
/// bytes, their type, and whether they came from the device's cache or
/// from the server just now.
///
/// ```swift
/// let fetched = try await client.data(for: message)
/// if fetched.mimeType == "image/png" { show(fetched.data) }
/// ```
public struct AttachmentData: Sendable, Hashable {
    /// The bytes.
    public var data: Data
    /// Their MIME type: as the server answered them (its `Content-Type`),
    /// or for bytes not sent yet, as the message says.
    public var mimeType: String
    /// Where the bytes came from.
    public var source: Source

    public init(data: Data, mimeType: String, source: Source) {
        self.data = data
        self.mimeType = mimeType
        self.source = source
    }

    /// Where ``AttachmentData`` came from.
    public enum Source: String, Sendable, Hashable {
        /// The device's cache: bytes not sent yet, or fetched before. No
        /// request was made.
        case cache
        /// The server, by a request made for this call.
        case network
    }
}
