import ChatSDK

extension World {
    /// The configuration of a client of this world (its network, its clock,
    /// its executor) for the app `apiKey`, with the defaults of
    /// `ChatClient.Configuration`: what a package outside this one (the
    /// benchmarks) builds a client from. Except the cache and the device:
    /// a world's clients keep their cache in memory and are `device-1`, so
    /// that nothing of a simulated run lands in the user's data folder.
    ///
    /// ```swift
    /// let client = ChatClient(configuration: world.clientConfiguration(), tokenProvider: SimulatedTokenProvider(world: world))
    /// ```
    public func clientConfiguration(apiKey: String = World.apiKey) -> ChatClient.Configuration {
        var configuration = ChatClient.Configuration(apiKey: apiKey, transport: makeTransport(), runtime: self)
        configuration.cacheMode = .memory
        configuration.deviceId = "device-1"
        return configuration
    }
}
