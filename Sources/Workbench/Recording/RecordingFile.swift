import ChatSDK
import Foundation

/// A recording file shown as `chatbench sessions show FILE` shows it: a
/// bundle, or an app's diagnostics file (ChatSDK's flight recorder writes
/// the same schema), read without being changed.
enum RecordingFile {
    static func show(_ path: String, timeline: Bool, traffic: Bool) throws(ScriptError) -> [StyledText] {
        guard FileManager.default.fileExists(atPath: path) else {
            throw ScriptError(.file, "no such file: \(path)")
        }
        do {
            let store = try RecordingStore(path: path, create: false, bundle: true)
            let session = try store.bundledSession()
            let steps = try store.steps(of: session.id)
            if timeline { return Timeline.draw(session, steps: steps, traffic: try store.traffic(of: session.id)).map { StyledText($0) } }
            if traffic {
                return TrafficListing.lines(session, steps: steps, traffic: try store.traffic(of: session.id)).map { StyledText($0) }
            }
            return SessionListing.transcript(session, steps: steps)
        } catch {
            throw ScriptError(.file, error.message)
        }
    }
}
