import ChatCore
import ChatSDK
import ChatSimulation
import Foundation
import Synchronization
import Testing

/// D6, A14: an attachment's bytes go out with its message, as one item of
/// the outbox, and come back through `data(for:)`.
@Suite struct AttachmentSendingTests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 7, 7, 7])

    @Test func theBytesWaitInTheCacheAcrossARestartAndGoOutWithTheirMessage() throws {
        let app = try DataLayerTests.DiskApp()
        try app.call { try await $0.setCurrentUser(userId: "alice") }
        let conversation = try app.call { try await $0.startConversation() }
        app.world.network.setOnline(false)
        let message = try app.call {
            try await $0.sendAttachment(Self.png, kind: .image, mimeType: "image/png", fileName: "dot.png", in: conversation.id)
        }
        #expect(message.state == .toBeSent)
        #expect(message.content == .attachment(kind: .image, mimeType: "image/png", size: 11, fileName: "dot.png"))
        // Until it is sent, the bytes are the cache's.
        #expect(try app.call { try await $0.data(for: message) } == AttachmentData(data: Self.png, mimeType: "image/png", source: .cache))
        try app.restart()
        app.world.network.setOnline(true)
        app.world.runUntilIdle()
        #expect(try app.call { try await $0.message(withId: message.id) }?.state == .sent)
        let stored = try app.world.backend.messages(conversationId: conversation.id)
        guard case .attachment(_, "image/png", 11, "dot.png", let id?)? = stored.first?.content else {
            Issue.record("the server's message names no bytes: \(stored)")
            return
        }
        #expect(id.hasPrefix("att-"))
        let requests = app.world.network.requestCount
        // Sent, they are read from the server, with the type it answers.
        #expect(try app.call { try await $0.data(for: message) } == AttachmentData(data: Self.png, mimeType: "image/png", source: .network))
        #expect(app.world.network.requestCount == requests + 1)
    }

    @Test func fetchedBytesComeFromTheCacheTheSecondTime() throws {
        let app = try DataLayerTests.DiskApp()
        try app.call { try await $0.setCurrentUser(userId: "alice") }
        let conversation = try app.call { try await $0.startConversation() }
        let message = try app.call { try await $0.sendAttachment(Self.png, kind: .image, mimeType: "image/png", in: conversation.id) }
        app.world.runUntilIdle()
        let requests = app.world.network.requestCount
        #expect(try app.call { try await $0.data(for: message) }.source == .network)
        #expect(app.world.network.requestCount == requests + 1)
        #expect(try app.call { try await $0.data(for: message) } == AttachmentData(data: Self.png, mimeType: "image/png", source: .cache))
        #expect(app.world.network.requestCount == requests + 1)
        // Across a restart: the cache is on disk.
        try app.restart()
        app.world.runUntilIdle()
        #expect(try app.call { try await $0.data(for: message) }.source == .cache)
    }

    @Test func anyoneOfTheAppReadsAProfileImageAtItsURL() throws {
        let app = try DataLayerTests.DiskApp()
        try app.call { try await $0.setCurrentUser(userId: "alice") }
        let alice = try app.call {
            try await $0.updateCurrentUserInfo(nickname: nil, image: ProfileImage(data: Self.png, mimeType: "image/png"))
        }
        let url = try #require(alice.profileURL)
        let image = AttachmentData(data: Self.png, mimeType: "image/png", source: .network)
        #expect(try app.call { try await $0.profileImageData(at: url) } == image)
        // Another user of the app reads it too.
        try app.call { await $0.clearCurrentUser() }
        try app.call { try await $0.setCurrentUser(userId: "bob") }
        #expect(try app.call { try await $0.profileImageData(at: url) } == image)
        // A URL the app set itself names no uploaded image; an unknown one, nothing.
        #expect(chatError { try app.call { try await $0.profileImageData(at: "https://example.com/a.png") } }?.code == .invalidArgument)
        #expect(chatError { try app.call { try await $0.profileImageData(at: "/v1/attachments/att-none") } }?.code == .unknownAttachment)
    }

    @Test func aFailedUploadIsRetriedLikeAnySend() throws {
        let app = try DataLayerTests.DiskApp()
        try app.call { try await $0.setCurrentUser(userId: "alice") }
        let conversation = try app.call { try await $0.startConversation() }
        app.world.network.failNext(1, kind: .unavailable)
        let message = try app.call {
            try await $0.sendAttachment(Self.png, kind: .image, mimeType: "image/png", in: conversation.id)
        }
        app.world.runUntilIdle()
        #expect(try app.call { try await $0.message(withId: message.id) }?.state == .toBeSent)
        app.world.advance(by: .seconds(10))
        #expect(try app.call { try await $0.message(withId: message.id) }?.state == .sent)
        #expect(try app.world.backend.messages(conversationId: conversation.id).map(\.id) == [message.id])
    }

    /// Uploaded, then a day without network: the server dropped the bytes
    /// no message named. The send is told `unknownAttachment`; the bytes
    /// are still on the device, so they go again, once, and the message
    /// names the new copy. Before, the message failed for good.
    @Test func bytesTheServerDroppedWhileTheSendWaitedGoAgain() throws {
        let app = try DataLayerTests.DiskApp()
        try app.call { try await $0.setCurrentUser(userId: "alice") }
        let conversation = try app.call { try await $0.startConversation() }
        app.world.runUntilIdle()
        app.world.network.setLatency(.seconds(1))
        // Spawned, not run until idle: the test moves the clock itself.
        let client = app.client
        let sent = Mutex<Message?>(nil)
        _ = app.world.spawn {
            let message = try? await client.sendAttachment(Self.png, kind: .image, mimeType: "image/png", in: conversation.id)
            sent.withLock { $0 = message }
        }
        // The server has the bytes...
        for _ in 0..<100 where try app.world.backend.attachments(apiKey: World.apiKey).isEmpty {
            app.world.advance(by: .milliseconds(100))
        }
        #expect(try app.world.backend.attachments(apiKey: World.apiKey).map(\.conversationId) == [nil])
        // The upload's answer comes back (1 s), the send leaves: offline
        // while it is on its way (1 s), so the server never gets it.
        app.world.advance(by: .milliseconds(1300))
        app.world.network.setOnline(false)
        app.world.runUntilIdle()
        let message = try #require(sent.withLock { $0 })
        #expect(try app.call { try await $0.message(withId: message.id) }?.state == .toBeSent)
        app.world.advance(by: .seconds(25 * 3600))
        app.world.network.setOnline(true)
        app.world.runUntilIdle()
        #expect(try app.call { try await $0.message(withId: message.id) }?.state == .sent)
        let stored = try app.world.backend.attachments(apiKey: World.apiKey)
        #expect(stored.count == 1)
        #expect(stored.first?.conversationId == conversation.id)
        #expect(try app.call { try await $0.data(for: message) }.data == Self.png)
    }

    @Test func theAppsLimitsAreReadBeforeTheFirstUploadThenRefuseAtOnce() throws {
        let app = try DataLayerTests.DiskApp()
        try app.call { try await $0.setCurrentUser(userId: "alice") }
        let conversation = try app.call { try await $0.startConversation() }
        app.world.runUntilIdle()
        // Not known yet: the outbox reads them before uploading, and bytes
        // they refuse never leave; the message fails with the server's reason.
        let first = try app.call {
            try await $0.sendAttachment(Data("#!/bin/sh".utf8), kind: .document, mimeType: "text/x-shellscript", in: conversation.id)
        }
        app.world.runUntilIdle()
        guard case .failed(let reason)? = try app.call({ try await $0.message(withId: first.id) })?.state else {
            Issue.record("the message did not fail")
            return
        }
        #expect(reason.code == .unsupportedMediaType)
        // Known now: refused by the call, with the same reason, and no request.
        let requests = app.world.network.requestCount
        let refused = chatError {
            try app.call {
                try await $0.sendAttachment(Data("#!/bin/sh".utf8), kind: .document, mimeType: "text/x-shellscript", in: conversation.id)
            }
        }
        #expect(refused?.code == .unsupportedMediaType)
        #expect(refused?.message == reason.message)
        #expect(app.world.network.requestCount == requests)
        // The app's limits change: the server refuses what the SDK let
        // through; the SDK reads them again and refuses the next at once.
        try app.world.backend.updateSettings(apiKey: World.apiKey) { $0.maxAttachmentBytes = 10 }
        let big = try app.call { try await $0.sendAttachment(Self.png, kind: .image, mimeType: "image/png", in: conversation.id) }
        app.world.runUntilIdle()
        guard case .failed(let tooLarge)? = try app.call({ try await $0.message(withId: big.id) })?.state else {
            Issue.record("the server let the bytes through")
            return
        }
        #expect(tooLarge.code == .attachmentTooLarge)
        let reread = app.world.network.requestCount
        let again = try app.call { try await $0.sendAttachment(Self.png, kind: .image, mimeType: "image/png", in: conversation.id) }
        app.world.runUntilIdle()
        #expect(app.world.network.requestCount == reread + 1)
        guard case .failed? = try app.call({ try await $0.message(withId: again.id) })?.state else {
            Issue.record("the limits were not read again")
            return
        }
        #expect(
            chatError { try app.call { try await $0.sendAttachment(Self.png, kind: .image, mimeType: "image/png", in: conversation.id) } }?
                .code == .attachmentTooLarge)
    }

    @Test func theLimitsAreCheckedBeforeAnyByteLeaves() throws {
        let app = try DataLayerTests.DiskApp()
        try app.call { try await $0.setCurrentUser(userId: "alice") }
        let conversation = try app.call { try await $0.startConversation() }
        app.world.runUntilIdle()
        let requests = app.world.network.requestCount
        let empty = chatError {
            try app.call { try await $0.sendAttachment(Data(), kind: .image, mimeType: "image/png", in: conversation.id) }
        }
        #expect(empty?.code == .invalidArgument)
        #expect(app.world.network.requestCount == requests)
        // A refused type fails the message with the server's reason.
        let refused = try app.call {
            try await $0.sendAttachment(Data("#!/bin/sh".utf8), kind: .document, mimeType: "text/x-shellscript", in: conversation.id)
        }
        app.world.runUntilIdle()
        #expect(try app.call { try await $0.message(withId: refused.id) }?.state.name == "failed")
        // A text message has no bytes.
        let text = try app.call { try await $0.sendMessage(.text("hi"), in: conversation.id) }
        #expect(chatError { try app.call { try await $0.data(for: text) } }?.code == .unknownAttachment)
    }
}
