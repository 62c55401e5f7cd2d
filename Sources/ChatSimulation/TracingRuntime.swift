import ChatCore

/// A runtime whose happenings the workbench shows: the embedded world and
/// the workbench's stages. The SDK never traces (its own events go through
/// `Configuration.onEvent`); the simulated network, the token provider and
/// the workbench's delegate do, and the workbench turns each trace into a
/// line of its event log.
package protocol TracingRuntime: ChatRuntime {
    /// Reports something worth showing (a request's fate, a provider asked
    /// for tokens) to whoever observes the world.
    func trace(_ source: String, _ message: String)
}
