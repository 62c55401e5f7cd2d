import Foundation

extension ClientCore {
    // MARK: The store (D2)

    /// Opens the user's store: a file per client and user in the cache
    /// folder with a disk cache, else memory. A file that cannot be opened
    /// (corrupt, foreign) leaves the client without a disk cache, and it says
    /// so with a warning (C1).
    func openStore(for user: String) {
        storePath = nil
        guard configuration.cacheMode == .disk else {
            store = LocalStore.inMemory()
            return
        }
        guard let folder = configuration.cacheDirectory else {
            diskCacheUnavailable("there is no cache folder (cacheDirectory is nil and the platform has none)")
            return
        }
        let path = LocalStore.path(in: folder, deviceId: deviceId, userId: user)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            diskCacheUnavailable("the cache folder \(folder) cannot be made (\(error.localizedDescription))")
            return
        }
        do {
            store = try LocalStore(path: path)
            storePath = path
            activeCacheMode.withLock { $0 = .disk }
        } catch {
            diskCacheUnavailable(
                "the disk cache \((path as NSString).lastPathComponent) cannot be used (\(LocalStore.reason(error)))")
        }
    }

    /// The disk cache cannot be used: the client carries on in memory, says
    /// so with a warning, and reports `.memory` as its cache (C1).
    private func diskCacheUnavailable(_ why: String) {
        store = LocalStore.inMemory()
        activeCacheMode.withLock { $0 = .memory }
        publish(.warning("\(why); carrying on without a disk cache"))
    }

    func deleteStoreFile() {
        guard let path = storePath else { return }
        store = LocalStore.inMemory()
        storePath = nil
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
    }

    /// Messages that were on their way when the app stopped go out again,
    /// in order, with the same client ids (D7).
    func resumeOutbox() {
        for var row in store.unsentMessages() {
            if row.state == .sending {
                row.state = .toBeSent
                save(row)
            }
            enqueueSend(row.id, in: row.conversationId)
        }
    }

    // MARK: Reachability (D7, D8)

    func startMonitoring() {
        guard monitor == nil else { return }
        if let warning = device.warning { publish(.warning(warning)) }
        let changes = configuration.transport.reachability()
        monitor = runtime.spawn {
            for await reachable in changes {
                await self.networkChanged(reachable: reachable)
            }
        }
    }

    /// The network went or is there, as the transport reports it or as
    /// the app says (`saidByApp`): the realtime link's machine decides what
    /// that means, the outbox hears it, and the client performs (D7, D8).
    func networkChanged(reachable: Bool, saidByApp: Bool = false) {
        for action in link.networkChanged(reachable: reachable, saidByApp: saidByApp) {
            switch action {
            case .networkWent: outbox.networkWent()
            case .networkReturned: networkReturned()
            case .resendNow: if userId != nil { resendNow() }
            case .show(let state): setConnection(state)
            case .endWait: backoff?.cancel()
            }
        }
    }

    /// What waited for the network goes: queued logouts, the outbox's
    /// queues, and watchers whose last refresh failed (D1), their state
    /// saying so while the outbox goes out.
    private func networkReturned() {
        flushPendingLogouts()
        let senders = outbox.networkReturned()
        guard userId != nil else { return }
        for sender in senders { spawn(sender) }
        let failed = watchers.keys.sorted().filter { watchers[$0]?.machine.refreshesWhenNetworkReturns == true }
        for id in failed { runtime.spawn { await self.refresh(id) } }
    }

    /// What the app says of the network (`networkReachabilityChanged`).
    func networkReachabilityChanged(_ reachable: Bool) {
        networkChanged(reachable: reachable, saidByApp: true)
    }

    // MARK: App lifecycle

    /// The app went to the background: the realtime connection closes (D8).
    func enterBackground() {
        guard !isShutDown else { return }
        background = true
        closeRealtime()
        markWatchersStale()
    }

    /// The app came back: reconnect, and refetch what active watchers show
    /// (the `RefetchTrigger`, D8).
    func enterForeground() async {
        guard !isShutDown else { return }
        background = false
        if machine.tokens != nil { ensureRealtime() }
        await refetchAll()
    }

    func refetchAll() async {
        guard !isShutDown else { return }
        for id in watchers.keys.sorted() { await refresh(id) }
    }

    /// The app is killed: everything stops, nothing is cleared.
    func shutdown() {
        isShutDown = true
        machine.shutDown()
        monitor?.cancel()
        stopWork()
        endWatchers(with: ChatError(.clientClosed, "The client was shut down"))
        // The app's event loops end too: nothing keeps the client alive.
        for id in eventSubscribers.keys.sorted() { eventSubscribers[id]?.finish() }
        eventSubscribers = [:]
        // A send's answer will not be handled: what waits for it is written.
        store.commitHeld()
    }
}
