// LEGACY: the one place that reads whose a traffic row is from its device
// id. Files written before schema v12 have no `traffic.origin`: the
// network's rows and the other side's were told apart by reserved device
// ids (`network`, `app-backend`), which a field recording's app could
// choose as its own. Their rows are read here, and only here
// (RecordingStore reads a row's origin with it when the column is NULL;
// so does the JSON of an entry without `origin`). Nothing written from v12
// on is read by it.

extension TrafficEntry.Origin {
    /// LEGACY: the origin of a row written before v12, by its device id:
    /// the reserved `network` and `app-backend` were the network and the
    /// other side, any other id a device.
    package init(legacyDeviceId deviceId: String) {
        switch deviceId {
        case Self.network.label: self = .network
        case Self.otherSide.label: self = .otherSide
        default: self = .device(deviceId)
        }
    }
}
