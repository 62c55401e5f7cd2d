internal import ChatCore
internal import ChatSimulation
import Dispatch
import Foundation

/// Runs a world on a thread of its own, so that an app's test can `await`
/// SDK calls without pumping: whenever work is queued on the world's
/// executor, or work in flight is scheduled from outside it, the thread
/// runs the world until no work is in flight (virtual
/// time moves only as far as that work needs; timers beyond it wait for
/// `advance` or `settle`). Everything that changes the world (the other
/// side, faults, time) is a command run on the same thread, between two
/// runs, so the world only ever runs on one thread at a time.
final class WorldDriver: Sendable {
    private struct State {
        var commands: [@Sendable (World) -> Void] = []
        var woken = false
        var stopped = false
    }

    let world: World
    private let signal = DispatchSemaphore(value: 0)
    private let state = LockedValue(State())

    init(world: World) {
        self.world = world
        world.simulationExecutor.onEnqueue { [weak self] in self?.wake() }
        world.scheduler.onScheduleInFlight { [weak self] in self?.wake() }
        let thread = Thread { [self] in run() }
        thread.name = "ChatSDKTestKit world"
        thread.start()
    }

    /// Runs `body` on the world's thread, then the world until idle; returns
    /// what `body` returned or threw.
    func perform<T: Sendable>(_ body: @escaping @Sendable (World) throws -> T) async throws -> T {
        let result: Result<T, any Error> = await withCheckedContinuation { continuation in
            submit { world in
                let result = Result { try body(world) }
                world.runUntilIdle()
                continuation.resume(returning: result)
            }
        }
        return try result.get()
    }

    /// `perform` for a body that cannot throw.
    func perform<T: Sendable>(_ body: @escaping @Sendable (World) -> T) async -> T {
        let result: Result<T, Never> = await withCheckedContinuation { continuation in
            submit { world in
                let value = body(world)
                world.runUntilIdle()
                continuation.resume(returning: .success(value))
            }
        }
        return result.get()
    }

    /// Ends the thread once it has run what was submitted before.
    func stop() {
        state.withLock { $0.stopped = true }
        signal.signal()
    }

    private func submit(_ command: @escaping @Sendable (World) -> Void) {
        state.withLock { $0.commands.append(command) }
        signal.signal()
    }

    /// Wakes the thread once for any number of jobs queued before it runs.
    private func wake() {
        let first = state.withLock { state in
            defer { state.woken = true }
            return !state.woken
        }
        if first { signal.signal() }
    }

    private func run() {
        while true {
            signal.wait()
            let (commands, stopped) = state.withLock { state in
                defer {
                    state.commands = []
                    state.woken = false
                }
                return (state.commands, state.stopped)
            }
            world.runUntilIdle()
            for command in commands { command(world) }
            if stopped { return }
        }
    }
}
