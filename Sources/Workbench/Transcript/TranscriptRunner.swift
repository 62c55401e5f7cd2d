import Foundation
import Synchronization

/// Runs `.chat` files as tests (SPEC W8): each in its own fresh world, with
/// the file's seed. A transcript passes when every input's output matches
/// its expected lines and no `expect` failed; a plain script passes when no
/// `expect` failed and every line was understood.
///
/// Outputs are compared as they would be written (redacted), and inputs
/// holding placeholders get the secrets this run produced back (W6).
package enum TranscriptRunner {
    /// A server for one file: its URL and how to stop it.
    package typealias ServerForFile = @Sendable (_ seed: UInt64) throws -> (url: String, stop: @Sendable () -> Void)

    /// Runs one file in a fresh session: in the embedded world, or against
    /// the server `server` gives for it (checked with ``ServerConformance``).
    /// `html`: a failed run's result carries its HTML sequence view;
    /// `onStart` sees each step as it starts (where a timed-out file was).
    package static func run(
        path: String, server: ServerForFile? = nil, html: Bool = false, onStart: (Transcript.Block) -> Void = { _ in }
    ) -> TranscriptResult {
        let started = ContinuousClock.now
        let transcript: Transcript
        do {
            transcript = try Transcript.load(path: path)
        } catch {
            return .error(error)
        }
        var options = WorkbenchOptions()
        options.seed = transcript.seed ?? 1
        if let reason = server == nil ? transcript.serverOnly : transcript.embeddedOnly {
            return TranscriptResult(
                path: path, kind: transcript.kind, passed: true, failures: [], isError: false,
                output: "", updatedText: nil, seconds: 0, skipped: reason)
        }
        var stopServer: (@Sendable () -> Void)?
        defer { stopServer?() }
        if let server {
            do {
                let running = try server(options.seed)
                options.serverURL = running.url
                stopServer = running.stop
            } catch {
                return .error(TranscriptError(path: path, "cannot start a server: \(error)"))
            }
        }
        let session: WorkbenchSession
        do {
            session = try WorkbenchSession(options: options)
        } catch {
            return .error(TranscriptError(path: path, "cannot start a world: \(error)"))
        }
        var conformance: ServerConformance.Expected?
        if server != nil {
            do {
                conformance = try .of(transcript, options: options)
            } catch {
                return .error(TranscriptError(path: path, "cannot start the embedded world to compare with: \(error)"))
            }
        }
        let capture = html ? RunCapture(workbench: session) : nil
        // Only an HTML capture reads the traffic.
        session.capturesTraffic = html
        var result = check(
            transcript, path: path, session: session, execute: session.execute, onStart: onStart,
            onStep: { capture?.add($0, $1) }, conformance: conformance)
        if let capture, !result.passed {
            result.html = capture.html(name: URL(fileURLWithPath: path).lastPathComponent, kind: .test)
        }
        let elapsed = ContinuousClock.now - started
        result.seconds = elapsed.timeInterval
        return result
    }

    /// Runs a parsed file through `execute` (the session's own, or a
    /// recorder's) and checks it; `onStart` sees each step as it starts,
    /// `onStep` as it ends. Against a server, `conformance` says what the
    /// run is compared with (``ServerConformance``).
    package static func check(
        _ transcript: Transcript, path: String, session: WorkbenchSession,
        execute: (String) -> StepResult, onStart: (Transcript.Block) -> Void = { _ in },
        onStep: (String, StepResult) -> Void = { _, _ in }, conformance: ServerConformance.Expected? = nil
    ) -> TranscriptResult {
        let matcher = TranscriptMatcher()
        var failures: [String] = []
        var output = ""
        var replacements: [Int: [String]] = [:]
        var expectFailed = false
        var failedSteps: [FailedStep] = []
        var failureStyles: [Int: OutputStyle] = [:]
        func fail(
            _ block: Transcript.Block, _ reason: FailedStep.Reason, found: [String], detail: [String], styles: [OutputStyle?] = []
        ) {
            failures.append("  line \(block.line): > \(block.input)")
            for (index, line) in detail.enumerated() {
                if index < styles.count, let style = styles[index] { failureStyles[failures.count] = style }
                failures.append("    " + line)
            }
            failedSteps.append(
                FailedStep(
                    file: path, line: block.line, input: block.input, reason: reason, expected: block.expected, found: found,
                    detail: detail))
        }
        for (index, block) in transcript.blocks.enumerated() {
            onStart(block)
            let input = session.reveal(block.input)
            let result = execute(input)
            onStep(input, result)
            let step = session.recordedStep(number: index + 1, input: input, result: result)
            let actual = lines(of: step.output)
            // The same step in the embedded world, to compare with.
            var embedded: (step: RecordedStep, minted: MintedValues)?
            if case .embeddedRun(let twin)? = conformance {
                let twinInput = twin.reveal(block.input)
                embedded = (twin.recordedStep(number: index + 1, input: twinInput, result: twin.execute(twinInput)), twin.mintedValues)
            }
            if transcript.kind == .transcript || !block.input.allSatisfy(\.isWhitespace) {
                output += "> \(step.input)\n" + step.output
            }
            switch transcript.kind {
            case .transcript:
                let compared = !session.isRecordingCommand(input)
                var (expected, got) = (block.expected, actual)
                if let embedded {
                    expected = ServerConformance.comparable(embedded.step.styledOutput, naming: embedded.minted)
                    got = ServerConformance.comparable(step.styledOutput, naming: session.mintedValues)
                } else if conformance != nil {
                    expected = ServerConformance.comparable(expected: block.expected)
                    got = ServerConformance.comparable(step.styledOutput)
                }
                if compared, !matcher.matches(expected: expected, actual: got) {
                    let diff = LineDiff.diff(expected: expected, actual: got, anyLines: TranscriptMatcher.anyLines) {
                        matcher.lineMatches($0, $1)
                    }
                    fail(
                        block, result.status == .expectFailed ? .expectFailed : .outputDiffers, found: actual, detail: diff.map(\.text),
                        styles: diff.map(\.style))
                    // A failed expect is never blessed: the file keeps its expectation.
                    if conformance == nil, result.status != .expectFailed { replacements[index] = actual.map(Transcript.expectedLine) }
                    if result.status == .expectFailed { expectFailed = true }
                } else if result.status == .expectFailed {
                    expectFailed = true
                    fail(block, .expectFailed, found: actual, detail: actual)
                }
            case .script:
                if result.status == .expectFailed || result.status == .scriptError {
                    fail(block, result.status == .expectFailed ? .expectFailed : .scriptError, found: actual, detail: actual)
                }
            }
            if result.status == .quit { break }
        }
        var result = TranscriptResult(
            path: path, kind: transcript.kind, passed: failures.isEmpty, failures: failures, isError: false,
            output: output, updatedText: replacements.isEmpty || transcript.isMarkdown ? nil : transcript.rendered(replacing: replacements),
            seconds: 0)
        result.expectFailed = expectFailed
        result.failedSteps = failedSteps
        result.failureStyles = failureStyles
        return result
    }

    static func lines(of output: String) -> [String] {
        var lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while let last = lines.last, last.allSatisfy(\.isWhitespace) { lines.removeLast() }
        return lines
    }

    /// The `.chat` files `paths` name: a file as is, a folder as every
    /// `*.chat` file in it (recursively), sorted. A folder named through a
    /// symbolic link is the folder it links to (Foundation's enumerator
    /// does not follow a link it starts at, and found no file in it); the
    /// files keep the name they were given.
    package static func files(in paths: [String]) throws(TranscriptError) -> [String] {
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw TranscriptError(path: path, "no such file or folder")
            }
            guard isDirectory.boolValue else {
                files.append(path)
                continue
            }
            let base = path.hasSuffix("/") ? String(path.dropLast()) : path
            let folder = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            let found = (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(".chat") }
                .sorted()
                .map { base + "/" + $0 }
            files += found
        }
        return files
    }

    /// Runs files on `jobs` threads, each file in its own session on one
    /// thread; results in the order of `paths`.
    /// A file that takes longer than `timeout` of wall time fails with a
    /// message saying so, and the others go on (its thread is abandoned).
    package static func runAll(
        _ paths: [String], jobs: Int, timeout: Duration? = nil, server: ServerForFile? = nil,
        html: Bool = false
    ) -> [TranscriptResult] {
        let next = Mutex(0)
        let results = Mutex([TranscriptResult?](repeating: nil, count: paths.count))
        let group = DispatchGroup()
        for _ in 0..<max(1, min(jobs, paths.count)) {
            group.enter()
            let thread = Thread {
                while true {
                    let index = next.withLock { value -> Int in
                        defer { value += 1 }
                        return value
                    }
                    guard index < paths.count else { break }
                    let result = run(path: paths[index], timeout: timeout, server: server, html: html)
                    results.withLock { $0[index] = result }
                }
                group.leave()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        group.wait()
        return results.withLock { $0.compactMap { $0 } }
    }

    /// ``run(path:server:)`` on a thread of its own, given up after `timeout`.
    static func run(path: String, timeout: Duration?, server: ServerForFile?, html: Bool = false) -> TranscriptResult {
        guard let timeout else { return run(path: path, server: server, html: html) }
        let outcome = Mutex<TranscriptResult?>(nil)
        let running = Mutex<Transcript.Block?>(nil)
        let done = DispatchSemaphore(value: 0)
        let worker = Thread {
            let result = run(path: path, server: server, html: html, onStart: { block in running.withLock { $0 = block } })
            outcome.withLock { $0 = result }
            done.signal()
        }
        worker.stackSize = 8 << 20
        worker.start()
        let seconds = timeout.timeInterval
        guard done.wait(timeout: .now() + seconds) == .success else {
            return timedOut(path: path, after: timeout, at: running.withLock { $0 })
        }
        return outcome.withLock { $0! }
    }

    /// The result of a file still running after `timeout`; `block` is the
    /// step it was running (nil when it had not started one).
    static func timedOut(path: String, after timeout: Duration, at block: Transcript.Block?) -> TranscriptResult {
        let why =
            "ran out of time: still running after \(Format.duration(timeout)) of wall time (--timeout); the rest of the file did not run"
        let seconds = timeout.timeInterval
        var result = TranscriptResult(
            path: path, kind: nil, passed: false, failures: ["  " + why], isError: false, output: "", updatedText: nil, seconds: seconds)
        result.timedOut = true
        if let block {
            result.failures = ["  line \(block.line): > \(block.input)", "    " + why]
            result.failedSteps = [
                FailedStep(file: path, line: block.line, input: block.input, reason: .timedOut, expected: block.expected, detail: [why])
            ]
        }
        return result
    }

    /// The files of shard `index` (1-based) of `count`: every count-th file
    /// of the list sorted by name, so that each file is in exactly one
    /// shard, whatever machine lists them.
    package static func shard(_ files: [String], index: Int, of count: Int) -> [String] {
        files.sorted().enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
    }

    /// `N passed, N failed` (and `, N skipped` when files were skipped).
    package static func summary(_ results: [TranscriptResult]) -> String {
        let skipped = results.filter { $0.skipped != nil }.count
        let passed = results.filter(\.passed).count - skipped
        return "\(passed) passed, \(results.count - passed - skipped) failed" + (skipped > 0 ? ", \(skipped) skipped" : "")
    }

    /// The report of a failing file: `FAIL path` then the annotated diffs,
    /// each line ending with a newline, with what each line is (the `FAIL`
    /// line a failure, a diff's lines removed or added).
    package static func report(_ result: TranscriptResult) -> StyledText {
        var report = StyledText()
        if let reason = result.skipped {
            report.appendLine("SKIP \(result.path) (\(reason))")
            return report
        }
        guard !result.passed else { return report }
        if result.isError {
            report.appendLine("ERROR \(result.failures.first ?? result.path)", as: .failure)
            return report
        }
        report.appendLine("FAIL \(result.path)", as: .failure)
        for (index, line) in result.failures.enumerated() { report.appendLine(line, as: result.failureStyles[index]) }
        return report
    }
}
