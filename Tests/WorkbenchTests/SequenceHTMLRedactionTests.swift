import ChatTestSupport
import Foundation
import Testing

@testable import Workbench

/// Nothing secret is in an HTML sequence view: it is drawn from the
/// recording, redacted where it was written (SPEC W6), like an export.
@Suite struct SequenceHTMLRedactionTests {
    @Test func secretsNeverReachThePage() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("s.sqlite").path
        let store = try RecordingStore(path: path)
        let recorder = try Recorder(store: store, workbench: try WorkbenchSession(options: WorkbenchOptions()), kind: .script)
        for line in [
            "user set alice", "send c1 text \"hi\"", "start conversation", "send c1 text \"hi\"", "# pasted: \(sampleJWT)",
            "expect client.user == \"\(sampleJWT)\"", "login jwt bob --secret hunter2-hunter2", "token expire", "send c1 text \"again\"",
        ] {
            _ = recorder.execute(line)
        }
        recorder.finish()
        let html = try store.sequenceHTML(of: recorder.session)
        // The traffic (with its tokens) is on the page, as placeholders.
        #expect(html.contains("&lt;token#1&gt;"))
        #expect(html.contains("&lt;jwt#1&gt;"))
        #expect(!html.contains("hunter2"))
        let patterns = ["eyJ[A-Za-z0-9_-]*\\.eyJ[A-Za-z0-9_-]*\\.", "\\b(?:at|rt|st|ak)[-_][A-Za-z0-9]{8,}\\b"]
        for pattern in patterns {
            let regex = try NSRegularExpression(pattern: pattern)
            #expect(regex.firstMatch(in: html, range: NSRange(html.startIndex..., in: html)) == nil, "\(pattern)")
        }
    }
}
