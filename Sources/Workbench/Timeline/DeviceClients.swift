/// Which client each device of a recorded session is, from values the
/// recording keeps, never by taking a device id apart (issue 30): a
/// workbench client's device id is made from its name
/// (``ClientObject/deviceId(of:)``), so each client named in the
/// session's state events names its device; an app's flight recording is
/// one client, whatever its device id.
struct DeviceClients: Sendable {
    /// The client each workbench device id is, by device id.
    private var names: [String: String] = [:]
    /// Set for a flight recording: the one client every device row is.
    private let onlyClient: String?

    init(session: RecordedSession, steps: [RecordedStep]) {
        onlyClient = session.isFieldRecording ? RecordedEvent.Kind.fieldClient : nil
        for step in steps {
            for event in step.events {
                if case .state(let client, _) = event.kind { names[ClientObject.deviceId(of: client)] = client }
            }
        }
    }

    /// The client whose lane a device's rows go to; nil for a device no
    /// client of the session names (it gets a lane of its own).
    func client(ofDevice device: String) -> String? { onlyClient ?? names[device] }

    /// How a device's row is labelled in the text timeline: its client's
    /// name in a workbench session (`alice`); in a flight recording, or for
    /// a device no client names, its id as recorded (`device-alice-iphone`).
    func label(ofDevice device: String) -> String { onlyClient == nil ? names[device] ?? device : device }
}
