import ChatTestSupport
import Foundation
import Testing
import Workbench

/// `sessions show --html`, `export --html` and `--html-on-failure`, opened
/// in headless Chromium: the DOM the browser built, and a screenshot.
///
/// They run when CHATBENCH_BROWSER_TESTS=1, as scripts/test.sh runs them:
/// on their own, after the other tests. Chromium is heavy on two cores; run
/// beside the server-mode tests, it starved their real-time steps (a
/// command's work went quiet for longer than its 50 ms window and the step
/// ended early: three server tests failed in each of two full runs, none in
/// a full run without these).
@Suite(
    .serialized,
    .enabled(
        if: ProcessInfo.processInfo.environment["CHATBENCH_BROWSER_TESTS"] == "1",
        "browser tests run on their own: CHATBENCH_BROWSER_TESTS=1 (scripts/test.sh does)"))
struct HTMLViewTests {
    /// A session with faults: a lost request (`net fail`), an offline
    /// window, an app restart, an agent's message pushed to the client and a
    /// failing expect.
    static let script = """
        user set alice
        start conversation
        send c1 text "one"
        watch items c1
        agent say c1 "hello <b>there</b>"
        net fail 1
        send c1 text "two"
        net offline
        send c1 text "three"
        net online
        app restart
        clock advance 2s
        expect m2.state == failed

        """
    static let steps = 13

    private func recorded() throws -> (TemporaryFolder, String) {
        let folder = try TemporaryFolder()
        let db = folder.url.appendingPathComponent("sessions.sqlite").path
        let run = try ChatbenchBinary.run(["--db", db, "--name", "faults"], input: Self.script)
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        return (folder, db)
    }

    private func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test func theBrowserShowsLanesStepsRequestsFramesAndFaults() throws {
        let (folder, db) = try recorded()
        let page = folder.url.appendingPathComponent("faults.html")
        let show = try ChatbenchBinary.run(["sessions", "show", "faults", "--db", db, "--html", page.path])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout == "wrote session 1 \"faults\" to \(page.path)\n")
        let dom = try Chromium.dumpDOM(page)
        // The page's script ran.
        #expect(dom.contains("data-ready=\"1\""), "\(dom.prefix(300))")
        for lane in [
            "<span class=\"lane client\">client</span>", "<span class=\"lane network\">network</span>",
            "<span class=\"lane server\">server</span>", "<span class=\"lane other\">other side</span>",
        ] {
            #expect(dom.contains(lane), "\(lane)")
        }
        #expect(count("<section class=\"step ", in: dom) == Self.steps)
        #expect(dom.contains("<section class=\"step expectFailed\" id=\"s13\" data-n=\"13\">"))
        #expect(dom.contains("<span class=\"st\">failed expect</span>"))
        // The first failure: the failed expect of step 13, not the request
        // that `net fail` lost on purpose at step 7 (issue 30).
        #expect(dom.contains("<a id=\"first-failure\" href=\"#s13\">"))
        // Requests with their answers, frames, the other side's call.
        #expect(dom.contains("POST /v1/conversations/c-89025cc1/messages<em>ok sent</em>"))
        #expect(dom.range(of: #"<div class="i frame[^"]*"[^>]*>.{0,200}event #\d+ messageCreated"#, options: .regularExpression) != nil)
        #expect(dom.contains("agentSay(c-89025cc1, &quot;hello &lt;b&gt;there&lt;/b&gt;&quot;)"))
        #expect(!dom.contains("<b>there</b>"))
        // Faults: the lost requests, the offline window, the restart.
        #expect(dom.contains("<em>error failed</em>"))
        #expect(dom.contains("<div class=\"i lost\""))
        // The offline window: what happened in it is shaded.
        #expect(dom.contains("<div class=\"i msg off\""))
        #expect(count("<li class=\"offline-window\"", in: dom) == 1)
        #expect(dom.contains(">fail next 1</p>") && dom.contains(">offline</p>") && dom.contains(">online</p>"))
        #expect(dom.contains(">app restart</p>"))
        #expect(dom.contains("<div class=\"i fresh"))
        #expect(dom.contains("<div class=\"i msg"))
        // Zoomed to steps 3–5 (from the address): the page's script hides the others.
        let zoomed = try Chromium.dumpDOM(URL(string: page.absoluteString + "#steps=3-5")!)
        #expect(count("<section class=\"step ", in: zoomed) == Self.steps)
        let hidden = try NSRegularExpression(pattern: #"<section [^>]*data-n="(\d+)" hidden="">"#)
        let numbers = hidden.matches(in: zoomed, range: NSRange(zoomed.startIndex..., in: zoomed)).compactMap {
            Range($0.range(at: 1), in: zoomed).flatMap { Int(zoomed[$0]) }
        }
        #expect(numbers == [1, 2] + Array(6...Self.steps), "\(numbers)")
        #expect(zoomed.contains("<section class=\"step ok\" id=\"s4\" data-n=\"4\"><h2"))
        // Self-contained.
        let html = try String(contentsOf: page, encoding: .utf8)
        for reference in ["src=", "href=\"http", "@import", "url("] { #expect(!html.contains(reference)) }
    }

    @Test func theTextTimelineShowsFramesLostRequestsAndFaults() throws {
        let (_folder, db) = try recorded()
        _ = _folder
        let timeline = try ChatbenchBinary.run(["sessions", "show", "faults", "--timeline", "--db", db])
        #expect(timeline.status == 0)
        let lines = timeline.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("[00:00:00.112]  │◀┄┄┄┄ event #3 messageCreated ┄┄┄┄│ client"), "\(timeline.stdout)")
        #expect(lines.contains("[00:00:00.136]  │─ POST /v1/conversations/c-89025cc1/messages ─✕ error failed (client)"))
        #expect(lines.contains("[00:00:00.112]  ⚡ network: fail next 1"))
        #expect(lines.contains("[00:00:00.136]  ⚡ network: offline"))
        // (After the reconnection's refetch that a freshness-honest watcher makes.)
        #expect(lines.contains("[00:00:00.276]  ⚡ network: restart device-client"), "\(timeline.stdout)")
        #expect(lines.contains("[00:00:00.020]  │────────── sendMessage ──────────▶│ ok"))
    }

    @Test func aScreenshotIsNotBlank() throws {
        let (folder, db) = try recorded()
        let page = folder.url.appendingPathComponent("faults.html")
        let export = try ChatbenchBinary.run(["export", "faults", "--html", page.path, "--db", db])
        #expect(export.status == 0, "\(export.stderr)")
        let blank = folder.url.appendingPathComponent("blank.html")
        try Data("<!DOCTYPE html><html><body></body></html>".utf8).write(to: blank)
        let shot = folder.url.appendingPathComponent("shot.png")
        let blankShot = folder.url.appendingPathComponent("blank.png")
        try Chromium.screenshot(page, to: shot)
        try Chromium.screenshot(blank, to: blankShot)
        let png = try Data(contentsOf: shot)
        let blankPNG = try Data(contentsOf: blankShot)
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        // 1200×800: the width and height in the IHDR chunk.
        #expect(Array(png[16..<24]) == [0, 0, 0x04, 0xB0, 0, 0, 0x03, 0x20])
        // A page drawn in full compresses far worse than an empty one.
        #expect(png.count > 8 * blankPNG.count, "\(png.count) bytes vs \(blankPNG.count) for a blank page")
    }

    @Test func failingRunsWriteTheirPage() throws {
        let (folder, db) = try recorded()
        let pages = folder.url.appendingPathComponent("pages")
        // test: only the failing file gets a page.
        let good = folder.url.appendingPathComponent("good.chat")
        let bad = folder.url.appendingPathComponent("bad.chat")
        try Data("> user set alice\nuser alice set on client (no request)\n...\n".utf8).write(to: good)
        try Data(Self.script.split(separator: "\n").map { "> \($0)\n" }.joined().utf8).write(to: bad)
        let test = try ChatbenchBinary.run(["test", good.path, bad.path, "--html-on-failure", pages.path])
        #expect(test.status == 1)
        let written = try FileManager.default.contentsOfDirectory(atPath: pages.path)
        #expect(written.count == 1 && written[0].hasSuffix("bad.html"), "\(written)")
        #expect(test.stderr.contains("failed; its sequence view: \(pages.path)/"))
        let page = try String(contentsOfFile: pages.path + "/" + written[0], encoding: .utf8)
        #expect(count("<section class=\"step ", in: page) == Self.steps)
        #expect(page.contains("<em>error failed</em>"))
        // replay: identical, no page; tampered with at step 3, a page of the steps run.
        let same = try ChatbenchBinary.run(["replay", "faults", "--db", db, "--html-on-failure", pages.path])
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: pages.path).count == 1)
        let store = try RecordingStore(path: db, create: false)
        try store.replaceSteps(
            of: 1,
            with: try store.steps(of: 1).map { step in
                var step = step
                if step.number == 3 { step.output += "tampered\n" }
                return step
            })
        let diverged = try ChatbenchBinary.run(["replay", "faults", "--db", db, "--html-on-failure", pages.path])
        #expect(diverged.status == 1)
        let replayPage = pages.path + "/replay-session-1.html"
        #expect(diverged.stderr.contains("the diverging replay's sequence view: \(replayPage)"))
        let replayed = try String(contentsOfFile: replayPage, encoding: .utf8)
        #expect(count("<section class=\"step ", in: replayed) == 3)
        #expect(replayed.contains("POST /v1/conversations/c-89025cc1/messages<em>ok sent</em>"))
    }
}
