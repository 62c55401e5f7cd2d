import Foundation
import Testing

@testable import Workbench

/// `$SCRATCH`: a folder of the session's own, shown as `$SCRATCH` in what a
/// step prints, so that a transcript that writes files prints the same on
/// every run and two runs at once never write the same file (examples/69
/// collided with itself when it wrote fixed paths under /tmp).
@Suite struct ScratchFolderTests {
    static let ticket = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples/field/support-ticket.sqlite").path

    @Test func eachSessionWritesInItsOwnFolderAndPrintsItsName() throws {
        let (first, second) = (try WorkbenchSession(options: WorkbenchOptions()), try WorkbenchSession(options: WorkbenchOptions()))
        let line = "export \(Self.ticket) $SCRATCH/t.chat"
        let printed = [first.execute(line), second.execute(line)]
        for step in printed {
            #expect(step.status == .ok, "\(step.output)")
            #expect(step.output.contains("to $SCRATCH/t.chat (run it with: chatbench test $SCRATCH/t.chat)"), "\(step.output)")
        }
        #expect(printed[0].output == printed[1].output)
        let folders = [first.interpreter.scratchFolder, second.interpreter.scratchFolder]
        #expect(folders[0] != folders[1])
        for folder in folders { #expect(FileManager.default.fileExists(atPath: folder + "/t.chat")) }
        // The second write in one session finds its own file.
        #expect(first.execute(line).output.contains("$SCRATCH/t.chat already exists"))
    }

    @Test func theFolderIsMadeOnlyWhenALineUsesIt() throws {
        let session = try WorkbenchSession(options: WorkbenchOptions())
        _ = session.execute("clock advance 1s")
        #expect(!FileManager.default.fileExists(atPath: session.interpreter.scratchFolder))
        // A quoted $SCRATCH is a path too, as a shell's "$TMPDIR" is.
        let step = session.execute("run \"$SCRATCH/none.chat\"")
        #expect(step.output == "script error: cannot read $SCRATCH/none.chat\n", "\(step.output)")
        #expect(FileManager.default.fileExists(atPath: session.interpreter.scratchFolder))
    }
}
