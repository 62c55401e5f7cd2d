import ChatCore

/// The authenticated author of a request: who they are and their app's settings.
struct Caller: Sendable {
    var userId: String
    var apiKey: String
    var settings: AppSettings
}
