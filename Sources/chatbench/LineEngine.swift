import Workbench

/// What the shell needs from a workbench session. `WorkbenchSession` is the
/// real one; tests substitute their own.
protocol LineEngine: AnyObject {
    var banner: String { get }
    func execute(_ line: String) -> StepResult
    func completions(for line: String, cursor: Int) -> [String]
    func historyLine(for line: String) -> String?
    var exitStatus: Int32 { get }
    /// The session underneath, for the prompt and `history`; nil in tests' doubles.
    var workbench: WorkbenchSession? { get }
}

extension LineEngine {
    var workbench: WorkbenchSession? { nil }
}

extension WorkbenchSession: LineEngine {
    var workbench: WorkbenchSession? { self }
}
