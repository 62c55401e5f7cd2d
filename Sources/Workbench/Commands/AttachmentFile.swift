import ChatSDK
import Foundation

/// A file the workbench sends as an attachment (`send C image FILE`,
/// `profile --image FILE`): its bytes, name and MIME type.
struct AttachmentFile {
    var data: Data
    var name: String
    var mimeType: String

    /// Reads `path` (relative to the working directory). The type is
    /// `mimeType` when given, else the one its extension names, else the
    /// kind's default. A missing or unreadable file is one line of error.
    init(path: String, kind: MessageContent.AttachmentKind, mimeType: String?) throws(ScriptError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ScriptError(.file, "cannot read \(path): no such file")
        }
        guard !isDirectory.boolValue, let data = FileManager.default.contents(atPath: path) else {
            throw ScriptError(.file, "cannot read \(path): \(isDirectory.boolValue ? "it is a folder" : "permission denied")")
        }
        self.data = data
        let url = URL(fileURLWithPath: path)
        name = url.lastPathComponent
        self.mimeType = mimeType ?? Self.mimeTypes[url.pathExtension.lowercased()] ?? Self.defaultMimeType(of: kind)
    }

    /// The MIME types of the extensions an app's default settings accept.
    static let mimeTypes: [String: String] = [
        "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif", "mp4": "video/mp4",
        "pdf": "application/pdf", "mp3": "audio/mpeg", "m4a": "audio/mp4", "txt": "text/plain",
    ]

    /// The type an attachment of `kind` gets when nothing names one.
    static func defaultMimeType(of kind: MessageContent.AttachmentKind) -> String {
        switch kind {
        case .image: "image/jpeg"
        case .video: "video/mp4"
        case .document: "application/pdf"
        case .audio: "audio/mpeg"
        }
    }
}
