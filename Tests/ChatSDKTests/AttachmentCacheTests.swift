import Foundation
import Testing

@testable import ChatSDK

/// D6: bytes fetched from the server stay in the cache, within its size
/// limit, the oldest fetched leaving first; an outgoing message's bytes
/// never leave for them; they go with the user's data.
@Suite struct AttachmentCacheTests {
    @Test func fetchedBytesAreKeptUnderTheLimitOldestFetchedFirst() throws {
        let store = try LocalStore(path: nil)
        for id in ["a", "b", "c", "d"] { store.setAttachment(AttachmentRow(attachmentId: "att-\(id)", data: nil), messageId: id) }
        store.setAttachment(AttachmentRow(attachmentId: nil, data: Data(count: 50)), messageId: "outgoing")
        store.keepFetched(Data(repeating: 1, count: 4), mimeType: "image/png", messageId: "a", limit: 10)
        store.keepFetched(Data(repeating: 2, count: 4), mimeType: "image/gif", messageId: "b", limit: 10)
        #expect(
            store.attachment(messageId: "a")
                == AttachmentRow(attachmentId: "att-a", data: Data(repeating: 1, count: 4), fetched: true, mimeType: "image/png"))
        store.keepFetched(Data(repeating: 3, count: 4), mimeType: "image/png", messageId: "c", limit: 10)
        // 12 bytes are over 10: the oldest fetched left; its id stays.
        #expect(store.attachment(messageId: "a") == AttachmentRow(attachmentId: "att-a", data: nil))
        #expect(store.attachment(messageId: "b")?.data == Data(repeating: 2, count: 4))
        #expect(store.attachment(messageId: "c")?.fetched == true)
        // Bytes larger than the limit are not kept.
        store.keepFetched(Data(count: 11), mimeType: "image/png", messageId: "d", limit: 10)
        #expect(store.attachment(messageId: "d")?.data == nil)
        // An outgoing message's bytes are not the cache's to drop.
        #expect(store.attachment(messageId: "outgoing")?.data?.count == 50)
        // They go with the user's data.
        store.wipe()
        #expect(store.attachment(messageId: "b") == nil)
    }
}
