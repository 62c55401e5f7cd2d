import Foundation

/// `chatbench test --annotations github`: a GitHub Actions workflow command
/// per failing step (`::error file=…,line=…,title=…::message`), so that a
/// failure shows on the pull request's diff, at the step's line.
///
/// Escaping follows GitHub's workflow-command documentation: in the message
/// `%`, CR and LF become `%25`, `%0D` and `%0A`; in a property (`file`,
/// `title`) `:` and `,` also become `%3A` and `%2C`.
package enum GitHubAnnotations {
    /// The commands for every failing file of `results`, in order.
    package static func commands(_ results: [TranscriptResult]) -> [String] {
        results.flatMap(commands(for:))
    }

    static func commands(for result: TranscriptResult) -> [String] {
        guard !result.passed, result.skipped == nil else { return [] }
        if result.failedSteps.isEmpty {
            // A malformed file, or one that ran out of time before its first step.
            let message = result.failures.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n")
            let title = result.isError ? "cannot run this file" : result.timedOut ? "ran out of time" : "failed"
            return [command(file: result.path, line: result.errorLine, title: title, message: message)]
        }
        return result.failedSteps.map { step in
            let message = step.detail.isEmpty ? step.summary : step.detail.joined(separator: "\n")
            return command(file: step.file, line: step.line, title: step.summary, message: message)
        }
    }

    /// `::error file=F,line=N,title=T::M`, each part escaped.
    package static func command(file: String, line: Int?, title: String, message: String) -> String {
        var properties = ["file=\(property(file))"]
        if let line { properties.append("line=\(line)") }
        properties.append("title=\(property(title))")
        return "::error \(properties.joined(separator: ","))::\(data(message))"
    }

    /// A message: `%`, CR and LF escaped.
    package static func data(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A property's value: as a message, and `:` and `,` escaped too.
    package static func property(_ text: String) -> String {
        data(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
