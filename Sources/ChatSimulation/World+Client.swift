import ChatSDK

extension World {
    /// The configuration of a client of this world (its network, its clock,
    /// its executor) for the app `apiKey`, with the defaults of
    /// `ChatClient.Configuration`: what a package outside this one (the
    /// benchmarks) builds a client from.
    ///
    /// ```swift
    /// let client = ChatClient(configuration: world.clientConfiguration(), tokenProvider: SimulatedTokenProvider(world: world))
    /// ```
    public func clientConfiguration(apiKey: String = World.apiKey) -> ChatClient.Configuration {
        ChatClient.Configuration(apiKey: apiKey, transport: makeTransport(), runtime: self)
    }
}
