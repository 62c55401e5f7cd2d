import ChatBackend
import ChatCore
import Foundation
import Testing

@Suite struct AttachmentTests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])

    func upload(_ data: Data, as mimeType: String = "image/png", in world: TestWorld, token: String) throws -> WireAttachment {
        let response = try world.handle(.uploadAttachment(mimeType: mimeType, data: data), token: token).get()
        guard case .attachment(let attachment) = response else { throw WireError(.internalError, "unexpected \(response)") }
        return attachment
    }

    func sendAttachment(_ attachment: WireAttachment, id: String, in conversationId: String, world: TestWorld, token: String)
        -> Result<WireResponse, WireError>
    {
        world.handle(
            .sendMessage(
                conversationId: conversationId, createConversation: NewConversation(title: nil),
                message: NewMessage(
                    id: id,
                    content: .attachment(
                        kind: .image, mimeType: attachment.mimeType, size: attachment.size, fileName: "dot.png", id: attachment.id),
                    replyTo: nil)), token: token)
    }

    @Test func uploadedBytesAreStoredWithADigestAndReadBackByTheConversationsMember() throws {
        let world = try TestWorld()
        let alice = try world.tokens("alice").accessToken
        let attachment = try upload(Self.png, in: world, token: alice)
        #expect(attachment.size == 11 && attachment.mimeType == "image/png")
        #expect(attachment.sha256 == "7f47b756761a46e6d4a4d96f0d8a4448f8449235009d1f3ad1493f5c773c19e8")
        _ = try sendAttachment(attachment, id: "m1", in: "c1", world: world, token: alice).get()
        let answer = try world.handle(.attachmentData(id: attachment.id), token: alice).get()
        #expect(answer == .attachmentData(mimeType: "image/png", data: Self.png))
    }

    @Test func noOneElseCanReadTheBytesAndAnUnknownIdAnswersTheSame() throws {
        let world = try TestWorld()
        let alice = try world.tokens("alice").accessToken
        let bob = try world.tokens("bob").accessToken
        let attachment = try upload(Self.png, in: world, token: alice)
        // Before it is sent: the uploader only.
        #expect(world.errorCode(.attachmentData(id: attachment.id), token: bob) == .unknownAttachment)
        _ = try sendAttachment(attachment, id: "m1", in: "c1", world: world, token: alice).get()
        guard case .failure(let refused) = world.handle(.attachmentData(id: attachment.id), token: bob),
            case .failure(let unknown) = world.handle(.attachmentData(id: "att-nothing"), token: bob)
        else {
            Issue.record("bob read alice's attachment")
            return
        }
        #expect(refused == unknown)
        // Bob cannot name alice's upload in a message of his either.
        #expect(
            (try? sendAttachment(attachment, id: "m2", in: "c2", world: world, token: bob).get()) == nil)
        #expect(world.errorCode(.attachmentData(id: attachment.id), token: nil) == .invalidToken)
    }

    @Test func typeAndSizeAreCheckedAgainstTheAppsSettingsBeforeStoring() throws {
        var settings = AppSettings()
        settings.maxAttachmentBytes = 10
        let world = try TestWorld(settings: settings)
        let alice = try world.tokens("alice").accessToken
        #expect(world.errorCode(.uploadAttachment(mimeType: "image/png", data: Self.png), token: alice) == .attachmentTooLarge)
        #expect(world.errorCode(.uploadAttachment(mimeType: "text/x-shellscript", data: Data([1])), token: alice) == .unsupportedMediaType)
        #expect(world.errorCode(.uploadAttachment(mimeType: "image/png", data: Data()), token: alice) == .badRequest)
        // The type is compared case-insensitively and kept in lower case.
        let stored = try upload(Data([1, 2]), as: "IMAGE/PNG", in: world, token: alice)
        #expect(stored.mimeType == "image/png")
    }

    @Test func theAppsLimitsAreItsSettingsAndGiveTheUploadsReasons() throws {
        var settings = AppSettings()
        settings.maxAttachmentBytes = 10
        settings.allowedMimeTypes = ["image/png"]
        let world = try TestWorld(settings: settings)
        let alice = try world.tokens("alice").accessToken
        let limits = WireAppLimits(maxAttachmentBytes: 10, allowedMimeTypes: ["image/png"])
        #expect(try world.handle(.appLimits, token: alice).get() == .limits(limits))
        #expect(world.errorCode(.appLimits, token: nil) == .invalidToken)
        // What the SDK checks against them is what an upload is told.
        guard case .failure(let refused) = world.handle(.uploadAttachment(mimeType: "image/png", data: Self.png), token: alice) else {
            Issue.record("the upload was stored")
            return
        }
        #expect(throws: refused) { try limits.check(mimeType: "image/png", size: 11) }
    }

    @Test func bytesNoMessageNamesAreDroppedADayAfterTheirUpload() throws {
        let world = try TestWorld()
        let alice = try world.tokens("alice").accessToken
        let named = try upload(Self.png, in: world, token: alice)
        _ = try sendAttachment(named, id: "m1", in: "c1", world: world, token: alice).get()
        let profile = try upload(Self.png, in: world, token: alice)
        _ = try world.handle(.uploadProfileImage(mimeType: "image/png", size: 11, attachmentId: profile.id), token: alice).get()
        let unnamed = try upload(Self.png, in: world, token: alice)
        world.clock.advance(Backend.unnamedAttachmentLifetime - .milliseconds(1))
        let later = try world.tokens("alice").accessToken
        #expect(world.errorCode(.attachmentData(id: unnamed.id), token: later) == nil)
        world.clock.advance(.milliseconds(1))
        // A day old: unknown to every request, and gone at the next write.
        #expect(world.errorCode(.attachmentData(id: unnamed.id), token: later) == .unknownAttachment)
        guard case .failure(let refused) = sendAttachment(unnamed, id: "m2", in: "c1", world: world, token: later) else {
            Issue.record("a message named dropped bytes")
            return
        }
        #expect(refused.code == .unknownAttachment)
        // What a message or a profile names stays.
        #expect(world.errorCode(.attachmentData(id: named.id), token: later) == nil)
        #expect(world.errorCode(.attachmentData(id: profile.id), token: later) == nil)
        #expect(try world.backend.attachments(apiKey: TestWorld.apiKey).map(\.id) == [named.id, profile.id])
    }

    @Test func aMessageMustDescribeTheBytesItNamesAndSendThemInOneConversation() throws {
        let world = try TestWorld()
        let alice = try world.tokens("alice").accessToken
        let attachment = try upload(Self.png, in: world, token: alice)
        var lying = attachment
        lying.size = 12
        #expect(throws: WireError.self) { try sendAttachment(lying, id: "m1", in: "c1", world: world, token: alice).get() }
        _ = try sendAttachment(attachment, id: "m1", in: "c1", world: world, token: alice).get()
        // A resend of the message is idempotent; another conversation is refused.
        _ = try sendAttachment(attachment, id: "m1", in: "c1", world: world, token: alice).get()
        #expect(throws: WireError.self) { try sendAttachment(attachment, id: "m2", in: "c2", world: world, token: alice).get() }
        var unknown = attachment
        unknown.id = "att-nothing"
        if case .failure(let error) = sendAttachment(unknown, id: "m3", in: "c1", world: world, token: alice) {
            #expect(error.code == .unknownAttachment)
        } else {
            Issue.record("a message named bytes that do not exist")
        }
    }

    @Test func aProfileImageIsUploadedBytesThatAnyoneOfTheAppReads() throws {
        let world = try TestWorld()
        let alice = try world.tokens("alice").accessToken
        let bob = try world.tokens("bob").accessToken
        let attachment = try upload(Self.png, in: world, token: alice)
        // Someone else's upload cannot be one's profile image.
        #expect(
            world.errorCode(.uploadProfileImage(mimeType: "image/png", size: 11, attachmentId: attachment.id), token: bob)
                == .unknownAttachment)
        #expect(world.errorCode(.attachmentData(id: attachment.id), token: bob) == .unknownAttachment)
        let response = try world.handle(
            .uploadProfileImage(mimeType: "image/png", size: 11, attachmentId: attachment.id), token: alice
        ).get()
        guard case .user(let user) = response else { throw WireError(.internalError, "unexpected \(response)") }
        #expect(user.profileURL == "/v1/attachments/\(attachment.id)")
        #expect(
            try world.handle(.attachmentData(id: attachment.id), token: bob).get() == .attachmentData(mimeType: "image/png", data: Self.png)
        )
        // A profile image is no message's.
        #expect((try? sendAttachment(attachment, id: "m1", in: "c1", world: world, token: alice).get()) == nil)
    }

    @Test func theAgentsFileIsCheckedAndReadByTheConversationsOwnerOnly() throws {
        let world = try TestWorld()
        let alice = try world.tokens("alice").accessToken
        let bob = try world.tokens("bob").accessToken
        try world.send("hello", id: "m1", in: "c1", token: alice)
        #expect(throws: WireError.self) {
            try world.backend.agentSendAttachment(
                conversationId: "c1", kind: .document, mimeType: "text/plain", fileName: "a.txt", data: Data("hi".utf8))
        }
        let message = try world.backend.agentSendAttachment(
            conversationId: "c1", kind: .image, mimeType: "image/png", fileName: "dot.png", data: Self.png)
        #expect(message.author == .provider(name: "agent"))
        guard case .attachment(.image, "image/png", 11, "dot.png", let id?) = message.content else {
            Issue.record("the agent's message names no bytes: \(message.content)")
            return
        }
        #expect(try world.handle(.attachmentData(id: id), token: alice).get() == .attachmentData(mimeType: "image/png", data: Self.png))
        #expect(world.errorCode(.attachmentData(id: id), token: bob) == .unknownAttachment)
    }

    @Test func theBytesSurviveAReopenOfTheFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("attachments-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("backend.sqlite").path
        let clock = TestClock()
        var id = ""
        var token = ""
        do {
            let backend = try Backend(environment: .counting(on: clock), path: path)
            try backend.createApp(apiKey: TestWorld.apiKey, jwtSecret: "s")
            token = try backend.issueTokens(apiKey: TestWorld.apiKey, userId: "alice").accessToken
            let envelope = WireEnvelope(
                apiKey: TestWorld.apiKey, accessToken: token, deviceId: "d",
                request: .uploadAttachment(mimeType: "image/png", data: Self.png))
            guard case .success(.attachment(let attachment)) = backend.handle(envelope) else {
                Issue.record("upload failed")
                return
            }
            id = attachment.id
        }
        let reopened = try Backend(environment: .counting(on: clock), path: path)
        let answer = reopened.handle(
            WireEnvelope(apiKey: TestWorld.apiKey, accessToken: token, deviceId: "d", request: .attachmentData(id: id)))
        #expect(answer == .success(.attachmentData(mimeType: "image/png", data: Self.png)))
    }
}
