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
                await self.reachabilityChanged(reachable)
            }
        }
    }

    func reachabilityChanged(_ reachable: Bool) {
        guard reachable != self.reachable else { return }
        self.reachable = reachable
        guard reachable else {
            // Down and waiting: now it is for the network; the back-off
            // ends, and the realtime loop waits for the network instead.
            if case .waitingForNetwork = connection {
                setConnection(.waitingForNetwork(.offline))
                backoff?.cancel()
            }
            return
        }
        flushPendingLogouts()
        guard userId != nil else { return }
        for sender in outbox.networkReturned() { spawn(sender) }
        // Watchers whose last refresh failed try again now (D1): their
        // state says so while the outbox goes out.
        let failed = watchers.keys.sorted().filter { watchers[$0]?.machine.refreshesWhenNetworkReturns == true }
        for id in failed { runtime.spawn { await self.refresh(id) } }
        // Reconnect now rather than at the end of the back-off.
        backoff?.cancel()
    }

    /// What the app says of the network (`networkReachabilityChanged`):
    /// as a change the transport reports; and back on a network the
    /// client thought it had, whatever backs off goes now (D7, D8).
    func networkReachabilityChanged(_ reachable: Bool) {
        let wasReachable = self.reachable
        reachabilityChanged(reachable)
        guard reachable, wasReachable, userId != nil else { return }
        resendNow()
        backoff?.cancel()
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
