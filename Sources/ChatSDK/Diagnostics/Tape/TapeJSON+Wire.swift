package import ChatCore
import Foundation

// The tape's bodies as their synthesised `Encodable` conformances write
// them: a struct's stored properties, an enum case as `{"case":{labels}}`
// (an unlabelled value as `_0`), a nil optional left out, keys sorted by
// their bytes. `TapeJSONTests` checks each against `JSONEncoder`.

extension TapeJSON {
    package mutating func write(_ envelope: WireEnvelope) {
        object {
            $0.field("accessToken", envelope.accessToken)
            $0.field("apiKey", envelope.apiKey)
            $0.field("deviceId", envelope.deviceId)
            $0.key("request")
            $0.write(envelope.request)
        }
    }

    package mutating func write(_ request: WireRequest) {
        object { json in
            switch request {
            case .refresh(let refreshToken): json.object("refresh") { $0.field("refreshToken", refreshToken) }
            case .listConversations(let cursor, let limit):
                json.object("listConversations") {
                    $0.field("cursor", cursor)
                    $0.field("limit", limit)
                }
            case .getConversation(let id): json.object("getConversation") { $0.field("id", id) }
            case .listMessages(let conversationId, let cursor, let limit):
                json.object("listMessages") {
                    $0.field("conversationId", conversationId)
                    $0.field("cursor", cursor)
                    $0.field("limit", limit)
                }
            case .messagesSince(let conversationId, let afterSeq, let limit):
                json.object("messagesSince") {
                    $0.field("afterSeq", afterSeq)
                    $0.field("conversationId", conversationId)
                    $0.field("limit", limit)
                }
            case .sendMessage(let conversationId, let createConversation, let message):
                json.object("sendMessage") {
                    $0.field("conversationId", conversationId)
                    if let createConversation { $0.object("createConversation") { $0.field("title", createConversation.title) } }
                    $0.key("message")
                    $0.write(message)
                }
            case .setTyping(let conversationId, let isTyping):
                json.object("setTyping") {
                    $0.field("conversationId", conversationId)
                    $0.field("isTyping", isTyping)
                }
            case .loginJWT(let jwt): json.object("loginJWT") { $0.field("jwt", jwt) }
            case .connectUserId(let userId, let signature):
                json.object("connectUserId") {
                    $0.field("signature", signature)
                    $0.field("userId", userId)
                }
            case .connectAccessToken(let userId, let accessToken, let signature):
                json.object("connectAccessToken") {
                    $0.field("accessToken", accessToken)
                    $0.field("signature", signature)
                    $0.field("userId", userId)
                }
            case .connectSessionToken(let userId, let sessionToken, let signature):
                json.object("connectSessionToken") {
                    $0.field("sessionToken", sessionToken)
                    $0.field("signature", signature)
                    $0.field("userId", userId)
                }
            case .registerDevice(let pushToken): json.object("registerDevice") { $0.field("pushToken", pushToken) }
            case .updateUser(let nickname, let profileURL, let attributes, let replaceAttributes):
                json.object("updateUser") {
                    if let attributes {
                        $0.key("attributes")
                        $0.encoded(attributes)
                    }
                    $0.field("nickname", nickname)
                    $0.field("profileURL", profileURL)
                    $0.field("replaceAttributes", replaceAttributes)
                }
            case .uploadProfileImage(let mimeType, let size, let attachmentId):
                json.object("uploadProfileImage") {
                    $0.field("attachmentId", attachmentId)
                    $0.field("mimeType", mimeType)
                    $0.field("size", size)
                }
            case .uploadAttachment(let mimeType, let bytes):
                json.object("uploadAttachment") {
                    $0.key("data")
                    $0.data(bytes)
                    $0.field("mimeType", mimeType)
                }
            case .attachmentData(let id): json.object("attachmentData") { $0.field("id", id) }
            case .loginAnonymous: json.object("loginAnonymous") { _ in }
            case .logout: json.object("logout") { _ in }
            case .unregisterDevice: json.object("unregisterDevice") { _ in }
            case .getCurrentUser: json.object("getCurrentUser") { _ in }
            case .appLimits: json.object("appLimits") { _ in }
            }
        }
    }

    package mutating func write(_ answer: TapeAnswer) {
        object { json in
            json.field("cancelled", answer.cancelled)
            if let error = answer.error {
                json.object("error") {
                    $0.field("code", error.code.rawValue)
                    $0.field("message", error.message)
                }
            }
            json.field("failure", answer.failure)
            if let lost = answer.lost {
                json.object("lost") {
                    $0.field("kind", lost.kind?.rawValue)
                    $0.field("message", lost.message)
                    $0.field("offline", lost.offline)
                }
            }
            if let response = answer.response {
                json.key("response")
                json.write(response)
            }
        }
    }

    package mutating func write(_ response: WireResponse) {
        object { json in
            switch response {
            case .tokens(let tokens): json.wrapped("tokens") { $0.write(tokens) }
            case .conversations(let page):
                json.wrapped("conversations") {
                    $0.object {
                        $0.array("elements", page.elements) { $0.write($1) }
                        $0.field("nextCursor", page.nextCursor)
                    }
                }
            case .conversation(let conversation): json.wrapped("conversation") { $0.write(conversation) }
            case .messages(let page):
                json.wrapped("messages") {
                    $0.object {
                        $0.array("elements", page.elements) { $0.write($1) }
                        $0.field("nextCursor", page.nextCursor)
                    }
                }
            case .sent(let conversation, let message):
                json.object("sent") {
                    $0.key("conversation")
                    $0.write(conversation)
                    $0.key("message")
                    $0.write(message)
                }
            case .ok: json.object("ok") { _ in }
            case .session(let tokens, let user, let mergedConversationIds):
                json.object("session") {
                    $0.array("mergedConversationIds", mergedConversationIds) { $0.string($1) }
                    $0.key("tokens")
                    $0.write(tokens)
                    $0.key("user")
                    $0.write(user)
                }
            case .user(let user): json.wrapped("user") { $0.write(user) }
            case .attachment(let attachment):
                json.wrapped("attachment") {
                    $0.object {
                        $0.field("id", attachment.id)
                        $0.field("mimeType", attachment.mimeType)
                        $0.field("sha256", attachment.sha256)
                        $0.field("size", attachment.size)
                    }
                }
            case .attachmentData(let mimeType, let bytes):
                json.object("attachmentData") {
                    $0.key("data")
                    $0.data(bytes)
                    $0.field("mimeType", mimeType)
                }
            case .limits(let limits):
                json.wrapped("limits") {
                    $0.object {
                        $0.array("allowedMimeTypes", limits.allowedMimeTypes) { $0.string($1) }
                        $0.field("maxAttachmentBytes", limits.maxAttachmentBytes)
                    }
                }
            }
        }
    }

    package mutating func write(_ event: WireEvent) {
        object { json in
            json.object("kind") {
                switch event.kind {
                case .messageCreated(let message): $0.wrapped("messageCreated") { $0.write(message) }
                case .conversationUpdated(let conversation): $0.wrapped("conversationUpdated") { $0.write(conversation) }
                case .typing(let conversationId, let providerName, let until):
                    $0.object("typing") {
                        $0.field("conversationId", conversationId)
                        $0.field("providerName", providerName)
                        $0.instant("until", until)
                    }
                }
            }
            json.field("userSeq", event.userSeq)
        }
    }

    package mutating func write(_ opening: TapeOpening) {
        object {
            $0.field("accessToken", opening.accessToken)
            $0.field("afterUserSeq", opening.afterUserSeq)
            $0.field("apiKey", opening.apiKey)
            $0.field("deviceId", opening.deviceId)
        }
    }

    package mutating func write(_ close: TapeClose) {
        object { $0.field("reason", close.reason) }
    }

    // MARK: Parts

    mutating func write(_ message: NewMessage) {
        object {
            $0.key("content")
            $0.write(message.content)
            $0.field("id", message.id)
            $0.field("replyTo", message.replyTo)
        }
    }

    mutating func write(_ message: WireMessage) {
        object {
            $0.object("author") {
                switch message.author {
                case .user(let id): $0.object("user") { $0.field("id", id) }
                case .provider(let name): $0.object("provider") { $0.field("name", name) }
                case .system: $0.object("system") { _ in }
                }
            }
            $0.key("content")
            $0.write(message.content)
            $0.field("conversationId", message.conversationId)
            $0.instant("createdAt", message.createdAt)
            $0.field("id", message.id)
            $0.field("replyTo", message.replyTo)
            $0.field("seq", message.seq)
        }
    }

    mutating func write(_ content: WireContent) {
        object {
            switch content {
            case .text(let text): $0.wrapped("text") { $0.string(text) }
            case .attachment(let kind, let mimeType, let size, let fileName, let id):
                $0.object("attachment") {
                    $0.field("fileName", fileName)
                    $0.field("id", id)
                    $0.field("kind", kind.rawValue)
                    $0.field("mimeType", mimeType)
                    $0.field("size", size)
                }
            }
        }
    }

    mutating func write(_ conversation: WireConversation) {
        object {
            $0.instant("createdAt", conversation.createdAt)
            $0.field("id", conversation.id)
            $0.field("lastMessagePreview", conversation.lastMessagePreview)
            $0.field("lastSeq", conversation.lastSeq)
            $0.field("providerReadSeq", conversation.providerReadSeq)
            $0.instant("providerTypingUntil", conversation.providerTypingUntil)
            $0.field("title", conversation.title)
            $0.instant("updatedAt", conversation.updatedAt)
        }
    }

    mutating func write(_ tokens: TokenPair) {
        object {
            $0.instant("accessExpiresAt", tokens.accessExpiresAt)
            $0.field("accessToken", tokens.accessToken)
            $0.instant("refreshExpiresAt", tokens.refreshExpiresAt)
            $0.field("refreshToken", tokens.refreshToken)
        }
    }

    mutating func write(_ user: WireUser) {
        object {
            $0.key("attributes")
            if user.attributes.isEmpty { $0.object { _ in } } else { $0.encoded(user.attributes) }
            $0.field("authenticationType", user.authenticationType.rawValue)
            $0.field("email", user.email)
            $0.field("id", user.id)
            $0.field("isAnonymous", user.isAnonymous)
            $0.field("name", user.name)
            $0.field("nickname", user.nickname)
            $0.field("profileURL", user.profileURL)
        }
    }

    /// `"name":{"milliseconds":…}`, left out when nil.
    mutating func instant(_ name: StaticString, _ instant: Instant?) {
        guard let instant else { return }
        object(name) { $0.field("milliseconds", instant.milliseconds) }
    }
}
