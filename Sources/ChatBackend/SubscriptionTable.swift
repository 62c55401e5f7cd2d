import ChatCore

/// The live realtime subscriptions, by id and by user: delivering a user's
/// events looks up that user's subscriptions instead of scanning them all
/// (with 500 open event streams the scan was the backend's hottest code).
/// Users are told apart by the bytes of their ids (``ExactKey``).
struct SubscriptionTable: Sendable {
    private var byID: [SubscriptionID: Subscription] = [:]
    /// Each user's subscription ids, in increasing order (ids only grow).
    private var idsByUser: [ExactKey: [SubscriptionID]] = [:]

    /// The subscription with this id; setting nil removes it. A subscription
    /// keeps its user for life.
    subscript(id: SubscriptionID) -> Subscription? {
        get { byID[id] }
        set {
            guard let newValue else {
                removeValue(forKey: id)
                return
            }
            if byID.updateValue(newValue, forKey: id) == nil {
                idsByUser[ExactKey(newValue.userId), default: []].append(id)
            }
        }
    }

    /// Removes a subscription; returns it, or nil if there was none.
    @discardableResult
    mutating func removeValue(forKey id: SubscriptionID) -> Subscription? {
        guard let removed = byID.removeValue(forKey: id) else { return nil }
        idsByUser[ExactKey(removed.userId)]?.removeAll { $0 == id }
        if idsByUser[ExactKey(removed.userId)]?.isEmpty == true { idsByUser[ExactKey(removed.userId)] = nil }
        return removed
    }

    /// The ids of a user's subscriptions, oldest first.
    func ids(ofUser userId: String) -> [SubscriptionID] {
        idsByUser[ExactKey(userId)] ?? []
    }

    /// Ids of the subscriptions `matches` selects, oldest first.
    func ids(where matches: (Subscription, SubscriptionID) -> Bool) -> [SubscriptionID] {
        byID.filter { matches($0.value, $0.key) }.keys.sorted { $0.rawValue < $1.rawValue }
    }
}
