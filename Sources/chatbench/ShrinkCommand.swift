import ArgumentParser
import Foundation
import Workbench

/// `chatbench shrink FILE`: a smallest script that fails the same way.
struct ShrinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shrink",
        abstract: "Reduce a failing script or transcript to a smallest one that fails the same way.",
        discussion: """
            The same way means: the same expect line fails first, or the same line is not \
            understood, or the same invariant is broken (see chatbench explore; a crash \
            too: each trial runs in a child process). Lines are \
            removed by delta debugging, then numbers made smaller (fewer failures, shorter \
            durations). The result is written as a script (-o FILE, else printed). Exit \
            status 1 when FILE does not fail at all.
            """
    )

    @Argument(help: ArgumentHelp("The failing script or transcript.", valueName: "file"), completion: .file(extensions: ["chat"]))
    var file: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the smallest script here.", valueName: "file"), completion: .file())
    var output: String?

    @Option(help: "The world's seed (default: the file's `# seed: N`, else 1).")
    var seed: UInt64?

    @Flag(help: "Check only the invariants, not the script's own expect lines.")
    var noExpects = false

    func run() throws {
        let lines = ExploreCommand.inputs(of: file)
        var shrinker = Shrinker()
        shrinker.seed = seed ?? ExploreCommand.load(file).seed ?? 1
        shrinker.checkExpects = !noExpects
        // Each trial in a worker: a trial that crashes is a failure too.
        let worker = RestartingWorker(
            arguments: ExploreWorker.arguments(file: nil, seed: shrinker.seed, faults: nil, noExpects: noExpects))
        defer { worker.finish() }
        let started = Date()
        guard let result = try shrinker.shrink(lines, check: worker.check) else {
            Terminal.error("chatbench: \(file) does not fail: nothing to shrink")
            throw ExitCode(1)
        }
        var text = "# seed: \(shrinker.seed)\n# shrunk from \(file): \(result.signature)\n"
        text += result.lines.joined(separator: "\n") + "\n"
        if let output {
            try text.write(toFile: output, atomically: true, encoding: .utf8)
        } else {
            Terminal.write(text)
        }
        Terminal.error(
            "from \(lines.count) lines to \(result.lines.count) in \(result.trials) trial runs, "
                + String(format: "%.1f s", Date().timeIntervalSince(started)))
        Terminal.flush()
    }
}
