/// Where a watcher's refresh stands (D1).
public enum RefreshingState: Sendable, Hashable {
    case refreshing
    case refreshed
    case failed(ChatError)

    public var name: String {
        switch self {
        case .refreshing: "refreshing"
        case .refreshed: "refreshed"
        case .failed: "failed"
        }
    }
}

/// What every watcher emits (D1): the whole data, whether it is known to be
/// fresh, and where its refresh stands.
public struct Response<Data: Sendable>: Sendable {
    public var data: Data
    /// True only while `data` is the server's as of the last successful
    /// fetch *and* the realtime connection has stayed up since, so that
    /// nothing can have changed unseen. When that stops being true (the
    /// connection is lost, the app goes to the background) the watcher
    /// emits the same data with `false`; once it has reconnected and
    /// refetched it emits `true` again. A watcher that has ended emits
    /// nothing more and is not fresh.
    public var isDataFresh: Bool
    public var refreshingState: RefreshingState

    public init(data: Data, isDataFresh: Bool, refreshingState: RefreshingState) {
        self.data = data
        self.isDataFresh = isDataFresh
        self.refreshingState = refreshingState
    }
}

/// A page window over a longer list (D3). `loadMore` is nil when nothing is
/// left; calling it emits again through the same watcher.
public struct PaginatedList<Element: Sendable>: Sendable {
    public var elements: [Element]
    public var loadMore: (@Sendable () async throws -> Void)?

    public init(elements: [Element], loadMore: (@Sendable () async throws -> Void)?) {
        self.elements = elements
        self.loadMore = loadMore
    }
}

/// A live, cached view of some data: an `AsyncSequence` of `Response`s that
/// ends with an error when there is nothing to show, or when the user is
/// cleared. Stop watching by cancelling the task that iterates it.
public struct Watcher<Value: Sendable>: AsyncSequence, Sendable {
    public typealias Element = Response<Value>
    let stream: AsyncThrowingStream<Response<Value>, any Error>

    public func makeAsyncIterator() -> AsyncThrowingStream<Response<Value>, any Error>.Iterator {
        stream.makeAsyncIterator()
    }
}
