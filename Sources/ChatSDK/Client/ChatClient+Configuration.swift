package import ChatCore

extension ChatClient {
    /// Where the client keeps its cache (C1).
    public enum CacheMode: String, Sendable, Hashable, CaseIterable {
        /// SQLite on disk, per client and user: survives restarts.
        case disk
        /// SQLite in memory: gone with the client.
        case memory
        /// Nothing kept between watchers beyond what is on its way.
        case off
    }

    /// How a client reaches its backend. ChatSDKNetwork makes one for a
    /// server (`.http(baseURL:)`); the embedded world makes its own. Opaque:
    /// what goes over it is the SDK's business.
    ///
    /// `.http` and `.realTime()` come from the network layer: without
    /// `import ChatSDKNetwork` the compiler says "type 'ChatClient.Transport'
    /// has no member 'http'". Add the `ChatSDKNetwork` product to the app
    /// and import it where the client is configured:
    ///
    /// ```swift
    /// import ChatSDK
    /// import ChatSDKNetwork
    ///
    /// let configuration = ChatClient.Configuration(
    ///     apiKey: "my-app-key", transport: .http(baseURL: serverURL), runtime: .realTime())
    /// ```
    public struct Transport: Sendable {
        package let base: any ChatTransport

        /// A transport for the package's own worlds (the simulation, the workbench).
        package init(_ base: any ChatTransport) { self.base = base }
    }

    /// The world a client runs in: the executor its work runs on, its clock,
    /// its randomness. ChatSDKNetwork makes the real one (`.realTime()`); the
    /// embedded world is a simulated one. Opaque, like `Transport`.
    public struct Runtime: Sendable {
        package let base: any ChatRuntime

        /// A runtime for the package's own worlds (the simulation, the workbench).
        package init(_ base: any ChatRuntime) { self.base = base }
    }

    /// How a client is set up. Only `apiKey`, `transport` and `runtime` have
    /// no default.
    public struct Configuration: Sendable {
        /// The app's API key; an unknown key fails every request with `invalidApiKey`.
        public var apiKey: String
        /// How the client reaches its backend.
        package var transport: any ChatTransport
        /// The executor, clock and randomness the client runs on.
        package var runtime: any ChatRuntime
        /// Default `.disk`.
        public var cacheMode: CacheMode = .disk
        /// Folder of the disk cache and of this install's device id (C4),
        /// created when first needed. Default: a `ChatSDK` folder in the
        /// platform's application-support folder (Application Support on
        /// Apple platforms; `$XDG_DATA_HOME`, else `~/.local/share`, on
        /// Linux). With `.disk` and no usable folder the client keeps its
        /// cache in memory and says so with a `warning` event (C1).
        public var cacheDirectory: String? = Configuration.defaultCacheDirectory
        /// This install's device id (C4): its server sessions and push token
        /// belong to it. Default nil: an id generated the first time and kept
        /// in `cacheDirectory` (file `device-id`), so that each install has
        /// its own. Without a disk cache nothing is kept, and each client
        /// generates one for its life.
        public var deviceId: String?
        /// Send queued messages by themselves when the network returns (D7). Default true.
        public var autoResend: Bool = true
        /// Refresh this long before the access token expires (A2). Default 30 s.
        public var refreshMargin: Duration = .seconds(30)
        /// Longest wait for the token provider. Default 30 s.
        public var providerTimeout: Duration = .seconds(30)
        /// Elements per page of paginated watchers (D3). Default 20.
        public var pageSize: Int = 20
        /// The most bytes of fetched attachments the cache keeps
        /// (`data(for:)`, D6), oldest fetched dropped first; larger bytes
        /// are not kept. They go with the user's other cached data (logout,
        /// `clearCurrentUser()`). Default 32 MiB; 0 keeps none.
        public var attachmentCacheBytes: Int64 = 32 * 1024 * 1024
        /// Called with every event at the moment it happens, on the
        /// client's executor, before any `events()` stream delivers it:
        /// for whoever must see events in the exact order they happened
        /// (a recorder, a test). It runs inside the client: keep it short,
        /// and do not call the client from it. Default none.
        public var onEvent: (@Sendable (ChatEvent) -> Void)?
        /// The flight recorder (issue 27): when set, the client keeps what
        /// the app asked of it, what it told the app and what crossed the
        /// wire in a SQLite file of the app's, for `exportDiagnostics(to:)`
        /// to hand to support. Default nil: off.
        public var diagnostics: Diagnostics?
        /// The recorder the client made from `diagnostics`, for the parts of
        /// the client that record calls of their own (a watcher's `loadMore`).
        package var flightRecorder: FlightRecorder?

        /// The file of the disk cache of `userId` on this device, if the
        /// configuration has a disk cache.
        public func cacheFile(forUserId userId: String) -> String? {
            guard cacheMode == .disk, let cacheDirectory,
                let device = deviceId ?? DeviceIdentity.stored(in: cacheDirectory)
            else { return nil }
            return LocalStore.path(in: cacheDirectory, deviceId: device, userId: userId)
        }

        /// The default `cacheDirectory`: a `ChatSDK` folder in the platform's
        /// application-support folder (the XDG data folder on Linux); nil
        /// when the process has no home folder.
        public static var defaultCacheDirectory: String? { DeviceIdentity.defaultDirectory() }

        /// A configuration with the defaults above.
        ///
        /// ```swift
        /// import ChatSDKNetwork
        /// let configuration = ChatClient.Configuration(
        ///     apiKey: "demo-key", transport: .http(baseURL: "http://127.0.0.1:8080"), runtime: .realTime())
        /// ```
        public init(apiKey: String, transport: Transport, runtime: Runtime) {
            self.init(apiKey: apiKey, transport: transport.base, runtime: runtime.base)
        }

        /// The same, from the package's own transport and runtime.
        package init(apiKey: String, transport: any ChatTransport, runtime: any ChatRuntime) {
            self.apiKey = apiKey
            self.transport = transport
            self.runtime = runtime
        }
    }
}
