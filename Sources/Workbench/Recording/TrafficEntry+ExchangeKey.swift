import ChatSDK

extension TrafficEntry {
    /// Which exchange of a tape an entry belongs to: whose it is and the
    /// exchange's number (none for the network's rows and the other
    /// side's calls, answered one at a time). By the origin, not its
    /// label: a device called `app-backend` is not the other side.
    struct ExchangeKey: Hashable {
        var origin: Origin
        var exchange: Int?
    }

    var exchangeKey: ExchangeKey { ExchangeKey(origin: origin, exchange: exchange) }
}
