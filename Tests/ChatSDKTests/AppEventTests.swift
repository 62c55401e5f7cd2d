import Foundation
import Testing

@testable import ChatSDK

/// The events a replay or an export reads, as values (issue 30): each goes
/// to JSON and back unchanged, and its text is what the recorder wrote
/// before it had values.
@Suite struct AppEventTests {
    static let cases: [(AppEvent, String, String)] = [
        (.returned(call: "sendMessage", value: .message(id: "m-1", state: "toBeSent")), "call", "call: sendMessage returned m-1 toBeSent"),
        (.returned(call: "startConversation", value: .conversation(id: "c-1")), "call", "call: startConversation returned c-1"),
        (.returned(call: "loginAnonymous", value: .user(id: "u-1")), "call", "call: loginAnonymous returned u-1"),
        (.returned(call: "authorize", value: .warnings(["a", "b"])), "call", "call: authorize returned warnings: a; b"),
        (.returned(call: "authorize", value: .warnings([])), "call", "call: authorize returned"),
        (.returned(call: "setCurrentUser", value: .nothing), "call", "call: setCurrentUser returned"),
        (
            .threw(call: "setCurrentUser", code: "currentUserAlreadySet", message: "alice is set"), "call",
            "call: setCurrentUser threw currentUserAlreadySet: alice is set"
        ),
        (.threw(call: "logout", code: nil, message: "cancelled"), "call", "call: logout threw cancelled"),
        (.message(id: "m-1", state: "sent", content: .text("hi")), "m-1:", #"m-1: sent "hi""#),
        (
            .message(id: "m-2", state: "sending", content: .attachment(kind: "image", mime: "image/png", bytes: 2048)), "m-2:",
            "m-2: sending [image image/png 2048 bytes]"
        ),
    ]

    @Test(arguments: cases.indices)
    func roundTripsAndRendersAsBefore(_ index: Int) throws {
        let (event, source, text) = Self.cases[index]
        #expect(event.source == source)
        #expect(event.text == text)
        let json = try #require(event.json)
        #expect(AppEvent(json: json) == event, "\(json)")
    }
}
