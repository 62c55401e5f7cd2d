import Foundation

extension ClientCore {
    // MARK: The client-wide store (A9)

    /// Where client-wide facts live: a file beside the users' caches with a
    /// disk cache, else memory (nil).
    var clientWideStorePath: String? {
        guard configuration.cacheMode == .disk, let folder = configuration.cacheDirectory else { return nil }
        return LocalStore.path(in: folder, deviceId: deviceId, userId: "_client")
    }

    /// The client-wide store, opened now if it is not yet. A file that
    /// cannot be opened leaves these facts in memory.
    func clientWideStore() -> LocalStore {
        if let store = openedClientStore { return store }
        if let folder = configuration.cacheDirectory, configuration.cacheMode == .disk {
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        let store = (try? LocalStore(path: clientWideStorePath)) ?? LocalStore.inMemory()
        reportFailures(of: store)
        openedClientStore = store
        return store
    }

    /// The queued logouts, oldest first. While the store is not open and
    /// has no file there are none, and nothing is opened or created: a
    /// client starts without touching the disk, and one that never queues
    /// a logout (most never do) never makes the file. The file is looked
    /// for once: only this client makes it, by opening the store.
    func pendingLogouts() -> [String] {
        if openedClientStore == nil {
            guard !clientWideStoreAbsent, let path = clientWideStorePath, FileManager.default.fileExists(atPath: path) else {
                clientWideStoreAbsent = true
                return []
            }
        }
        return clientWideStore().pendingLogouts()
    }
}
