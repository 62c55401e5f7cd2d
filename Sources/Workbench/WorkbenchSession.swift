/// Options a workbench session starts with (from the command line).
public struct WorkbenchOptions: Sendable {
    /// Seed of the embedded world's random choices.
    public var seed: UInt64 = 1
    /// Stop a script at the first failing `expect` or script error.
    public var bail: Bool = false
    /// True when a person types at a terminal (affects nothing printed by
    /// commands; only the banner and hints).
    public var interactive: Bool = false
    public init() {}
}

/// How one line went.
public enum StepStatus: Sendable, Hashable {
    case ok
    /// An `expect` did not hold.
    case expectFailed
    /// The line could not be understood (unknown verb, handle, field, option).
    case scriptError
    /// The user asked to leave.
    case quit
}

public struct StepResult: Sendable, Hashable {
    /// What the line printed, each line ending with "\n" (empty when nothing).
    public var output: String
    public var status: StepStatus
    public init(output: String, status: StepStatus) {
        self.output = output
        self.status = status
    }
}

/// One workbench session: a world, its objects and handles, and the command
/// language on top. No terminal code: the executable feeds it lines.
public final class WorkbenchSession {
    public let options: WorkbenchOptions

    public init(options: WorkbenchOptions) throws {
        self.options = options
    }

    /// One line saying what this is, for the top of an interactive session.
    public var banner: String { "chatbench (stub)" }

    /// Executes one line and returns what it printed.
    public func execute(_ line: String) -> StepResult {
        StepResult(output: "", status: .ok)
    }

    /// Candidates for the word that ends at `cursor` (a UTF-8 offset into
    /// `line`): verbs, options, handles, field paths. Each candidate is the
    /// whole replacement word.
    public func completions(for line: String, cursor: Int) -> [String] { [] }

    /// The line as it may be written to history, with secrets replaced by
    /// placeholders; nil when it should not be kept at all.
    public func historyLine(for line: String) -> String? { line }

    /// 0 when every step was ok, 1 if an `expect` failed, 2 if a line could
    /// not be understood (2 wins over 1).
    public var exitStatus: Int32 { 0 }
}
