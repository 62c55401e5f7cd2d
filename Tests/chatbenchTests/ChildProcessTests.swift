import ChatTestSupport
import Foundation
import Testing

/// The tests' own way to wait for a child process: it asks the kernel, so a
/// child that another child holds the wake-up socket of is still seen to end,
/// and a child that never ends is killed and named.
@Suite struct ChildProcessTests {
    static func shell(_ script: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    @Test func anExitStatusAndASignalAreTold() throws {
        #expect(try Self.shell("exit 3").waitForExit() == ChildExit(status: 3, signaled: false))
        #expect(try Self.shell("kill -9 $$").waitForExit() == ChildExit(status: SIGKILL, signaled: true))
    }

    @Test func aChildThatOutlivesItsTimeIsKilledAndNamed() throws {
        let process = try Self.shell("sleep 30")
        #expect {
            try process.waitForExit(timeout: .seconds(1))
        } throws: { error in
            "\(error)" == "sh -c sleep 30 was still running after 1 s: killed"
        }
        #expect(try process.waitForExit(timeout: .seconds(10)).signaled)
    }

    /// A grandchild that keeps every inherited descriptor open (as a daemon
    /// would) does not stop the wait for the child that started it.
    @Test func aLongLivedGrandchildDoesNotHoldTheWait() throws {
        let process = try Self.shell("sleep 20 & exit 0")
        #expect(try process.waitForExit(timeout: .seconds(10)) == ChildExit(status: 0, signaled: false))
    }
}
