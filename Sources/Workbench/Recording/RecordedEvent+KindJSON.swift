import ChatSDK
import Foundation

extension RecordedEvent.Kind {
    /// The kind as the `event.kind` column keeps it: the bytes of its
    /// `Codable` encoding with sorted keys (what ``init(json:)`` reads),
    /// written by hand, as a traffic row's kind is: a step of 100,000
    /// emissions writes as many (checked against the encoder in
    /// EventKindTests).
    package var json: String {
        var json = JSONText()
        switch self {
        case .state(let client, let change): json.object("state", ["change": .text(change), "client": .text(client)])
        case .request(let name, let answer):
            json.open("request")
            json.key("answer")
            answer.write(&json)
            json.raw(",")
            json.field("name", .text(name))
            json.close()
        case .emission(let watcher, let fresh): json.object("emission", ["fresh": .flag(fresh), "watcher": .text(watcher)])
        case .watcherEnded(let watcher): json.object("watcherEnded", ["watcher": .text(watcher)])
        case .message(let handle): json.object("message", ["handle": .text(handle)])
        case .provider: json.object("provider", [:])
        case .call: json.object("call", [:])
        case .other: json.object("other", [:])
        }
        return json.text
    }

    /// A kind read back from the `event.kind` column; nil when it is not
    /// one this version knows (as a request of a build before its answer
    /// was typed, `"answer":"ok"`: its row is typed by the LEGACY reader).
    package init?(json: String) {
        guard let kind = TapeCoding.decode(Self.self, from: Data(json.utf8)) else { return nil }
        self = kind
    }
}
