extension ClientCore {
    /// Stores a message and, when it is one this device holds as the
    /// user's own and its send state changed, tells the app: the one
    /// source of `messageStateChanged`, so that every state the app hears
    /// of is one the message entered, in order.
    ///
    /// A message first seen already sent (from another device, or an older
    /// page) changes no state here: it just appears.
    func save(_ row: MessageRow) {
        let previous = store.message(id: row.id)
        store.upsert(row)
        guard case .user = row.author else { return }
        if let previous {
            guard previous.state != row.state || previous.errorCode != row.errorCode else { return }
        } else if row.state == .sent {
            return
        }
        publish(.messageStateChanged(message(from: row)))
    }
}
