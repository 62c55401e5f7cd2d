import ChatTestSupport
import Foundation
import Testing

/// The built `chatbench` executable, run as a subprocess the way a user runs it.
enum ChatbenchBinary {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    struct NotFound: Error, CustomStringConvertible {
        var searched: [String]
        var description: String {
            "the chatbench executable was not found (build it with `swift build --product chatbench`); looked in: "
                + searched.joined(separator: ", ")
        }
    }

    /// The package's root folder, from this file's path.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Finds the executable next to the test bundle (the products folder), or
    /// in the package's `.build/debug`; `CHATBENCH_BIN` overrides both.
    static func url() throws -> URL {
        let environment = ProcessInfo.processInfo.environment
        var folders: [URL] = []
        if let explicit = environment["CHATBENCH_BIN"] {
            return URL(fileURLWithPath: explicit)
        }
        let bundle = Bundle.main.bundleURL
        folders += [bundle, bundle.deletingLastPathComponent()]
        if let executable = Bundle.main.executableURL {
            folders.append(executable.deletingLastPathComponent())
        }
        if let argument = CommandLine.arguments.first {
            folders.append(URL(fileURLWithPath: argument).deletingLastPathComponent())
        }
        // macOS: the .xctest bundle sits in the products folder.
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        folders.append(packageRoot.appendingPathComponent(".build/debug"))
        let candidates = folders.map { $0.appendingPathComponent("chatbench") }
        if let found = candidates.first(where: { isExecutableFile($0) }) {
            return found
        }
        throw NotFound(searched: candidates.map(\.path))
    }

    private static func isExecutableFile(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
            && !isDirectory.boolValue && FileManager.default.isExecutableFile(atPath: url.path)
    }

    /// Starts chatbench with `arguments` and pipes on its standard input and
    /// output (standard error discarded), for a test that talks to it line
    /// by line; its state and data folders in `scratch` when given.
    static func start(_ arguments: [String], scratch: TemporaryFolder? = nil) throws -> (Process, input: Pipe, output: Pipe) {
        let process = Process()
        process.executableURL = try url()
        process.arguments = arguments
        if let scratch {
            var environment = ProcessInfo.processInfo.environment
            environment["XDG_STATE_HOME"] = scratch.url.appendingPathComponent("state").path
            environment["XDG_DATA_HOME"] = scratch.url.appendingPathComponent("data").path
            process.environment = environment
        }
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        return (process, input, output)
    }

    /// Runs chatbench with `arguments`, `input` on standard input (a pipe,
    /// never a terminal), and state and data folders in a fresh temporary folder.
    static func run(_ arguments: [String], input: String = "", environment extra: [String: String] = [:]) throws -> Run {
        let scratch = try TemporaryFolder()
        let process = Process()
        process.executableURL = try url()
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = scratch.url.appendingPathComponent("state").path
        environment["XDG_DATA_HOME"] = scratch.url.appendingPathComponent("data").path
        environment["NO_COLOR"] = "1"
        environment.merge(extra) { $1 }
        process.environment = environment

        let inputFile = scratch.url.appendingPathComponent("stdin")
        let outputFile = scratch.url.appendingPathComponent("stdout")
        let errorFile = scratch.url.appendingPathComponent("stderr")
        try Data(input.utf8).write(to: inputFile)
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        let stdin = try FileHandle(forReadingFrom: inputFile)
        let stdout = try FileHandle(forWritingTo: outputFile)
        let stderr = try FileHandle(forWritingTo: errorFile)
        defer {
            try? stdin.close()
            try? stdout.close()
            try? stderr.close()
        }
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr

        try process.run()
        let exit = try process.waitForExit()
        return Run(
            status: exit.signaled ? 128 + exit.status : exit.status,
            stdout: String(decoding: try Data(contentsOf: outputFile), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errorFile), as: UTF8.self)
        )
    }
}
