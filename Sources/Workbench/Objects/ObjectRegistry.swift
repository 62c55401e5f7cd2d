/// Every object the session created or saw, by handle, and the handle of
/// each SDK or server id. Messages, by far the most numerous, live in a
/// compact `MessageTable` and are looked up as `MessageObject` views;
/// everything else, and any extra name bound to a message, is kept as is.
struct ObjectRegistry {
    private var named: [String: any Inspectable] = [:]
    private var handleForID: [String: String] = [:]
    let messages = MessageTable()

    /// The object a handle names.
    subscript(name: String) -> (any Inspectable)? {
        get {
            if let object = named[name] { return object }
            return messages.index(ofHandle: name).map { MessageObject(table: messages, index: $0) }
        }
        set { named[name] = newValue }
    }

    /// The handle of the object an SDK or server id names.
    func handle(forID id: String) -> String? {
        if let handle = handleForID[id] { return handle }
        return messages.index(ofID: id).map(messages.handle(at:))
    }

    /// Registers an object under its handle, and its id if it has one.
    mutating func register(_ object: any Inspectable, id: String?) {
        named[object.handle] = object
        if let id { handleForID[id] = object.handle }
    }

    /// The message an SDK id names.
    func message(withID id: String) -> MessageObject? {
        messages.index(ofID: id).map { MessageObject(table: messages, index: $0) }
    }

    /// Adds a message under `handle` (`m<number>`, or a chosen name when `number` is nil).
    func addMessage(id: String, conversationId: String, client: ClientObject, handle: String, number: Int?) -> MessageObject {
        let index = messages.add(id: id, conversationId: conversationId, client: client, handle: handle, number: number)
        return MessageObject(table: messages, index: index)
    }

    /// Every name, messages' included (unordered).
    var keys: [String] { Array(named.keys) + messages.handles }

    /// Every object by name, messages' included (unordered).
    var entries: [(key: String, value: any Inspectable)] {
        named.map { (key: $0.key, value: $0.value) }
            + (0..<messages.count).map { index in
                let object = MessageObject(table: messages, index: index)
                return (key: object.handle, value: object as any Inspectable)
            }
    }

    var values: [any Inspectable] { entries.map(\.value) }

    /// The objects of a kind other than messages (conversations, watchers…),
    /// without making a view of every message to pass over it.
    func others<T>(_ kind: T.Type) -> [T] { named.values.compactMap { $0 as? T } }

    func filter(_ isIncluded: ((key: String, value: any Inspectable)) -> Bool) -> [(key: String, value: any Inspectable)] {
        entries.filter(isIncluded)
    }
}
