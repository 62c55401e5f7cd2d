extension TrafficEntry {
    /// Whose an entry is (issue 30): a client's device, the network or the
    /// other side. Readers decide by this, never by comparing a device id
    /// to a name: in a field recording the app chooses its device id, and
    /// one called `network` or `app-backend` is still a device. The
    /// `traffic.origin` column keeps it (from schema v12: `device`,
    /// `network`, `other-side`); `traffic.device_id` keeps its ``label``.
    package enum Origin: Sendable, Hashable {
        /// A client's device (each workbench client has one; a field
        /// recording's is the app's): its requests and their answers, its
        /// event stream.
        case device(String)
        /// The network: its faults and changes of its conditions (`offline`,
        /// `online`, `latency 200ms`, `fail next 3`, `drop`, `restart
        /// device-alice`), `out` rows on the `http` channel without a body;
        /// a tape replay skips them.
        case network
        /// The other side: the workbench's calls as the app's backend and
        /// the agent (`AppBackendTape`), and their answers.
        case otherSide

        /// The device's id, for a device's entry; nil for the network's and the other side's.
        package var deviceId: String? {
            if case .device(let id) = self { id } else { nil }
        }

        /// Whose it is, for people (the tape listing, the timeline): the
        /// device's id, `network` or `app-backend`. What `traffic.device_id`
        /// keeps, so that queries of it read as before; never what a reader
        /// decides by.
        package var label: String {
            switch self {
            case .device(let id): id
            case .network: "network"
            case .otherSide: "app-backend"
            }
        }

        /// Its `traffic.origin` value: `device`, `network` or `other-side`.
        package var column: String {
            switch self {
            case .device: "device"
            case .network: "network"
            case .otherSide: "other-side"
            }
        }

        /// The origin a `traffic.origin` value names, the device's id being
        /// `deviceId` (`traffic.device_id`); nil for a value this version does not know.
        package init?(column: String, deviceId: String) {
            switch column {
            case "device": self = .device(deviceId)
            case "network": self = .network
            case "other-side": self = .otherSide
            default: return nil
            }
        }
    }

    /// The device of the client it belongs to; nil for the network's and the
    /// other side's entries (``origin``).
    package var deviceId: String? { origin.deviceId }
}
