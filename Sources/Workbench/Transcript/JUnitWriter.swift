import Foundation

/// JUnit XML for `chatbench test --junit FILE`: one test suite, one test
/// case per file (its name, and its folder as the class name); a failure
/// holds the diff, an error a malformed file. Valid against Jenkins xunit's
/// `junit-10.xsd`, which allows no `file` or `line` attribute on
/// `<testcase>` (GitLab's parser reads a `file` there, and no line): a
/// failure's message starts with `path:line:` of the first failing step
/// instead, and its `type` says why (`outputDiffers`, `expectFailed`,
/// `scriptError`, `timedOut`).
/// `chatbench explore --junit FILE` writes it too, a test case per file
/// explored, with `failing` saying what a failure is.
package enum JUnitWriter {
    package static func xml(
        _ results: [TranscriptResult], suite: String = "chatbench",
        failing: String = "output differs or an expect failed at "
    ) -> String {
        let failures = results.filter { !$0.passed && !$0.isError }.count
        let errors = results.filter(\.isError).count
        let time = format(results.map(\.seconds).reduce(0, +))
        var out = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>"]
        out.append("<testsuites tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"\(time)\">")
        out.append(
            "  <testsuite name=\"\(escape(suite))\" tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"\(time)\">"
        )
        for result in results {
            let name = result.path.split(separator: "/").last.map(String.init) ?? result.path
            let folder = result.path.split(separator: "/").dropLast().joined(separator: ".")
            let open =
                "    <testcase name=\"\(escape(name))\" classname=\"\(escape(folder.isEmpty ? suite : folder))\" time=\"\(format(result.seconds))\""
            if let reason = result.skipped {
                out.append(open + ">")
                out.append("      <skipped message=\"\(escape(reason))\"/>")
                out.append("    </testcase>")
                continue
            }
            if result.passed {
                out.append(open + "/>")
                continue
            }
            out.append(open + ">")
            let body = escape(result.failures.joined(separator: "\n"))
            if result.isError {
                out.append("      <error message=\"\(escape(result.failures.first ?? "error"))\">\(body)</error>")
            } else if let step = result.failedSteps.first {
                // The schema has no file or line on a test case: the message
                // names them, as a compiler does (`path:line: what`).
                let message = "\(step.file):\(step.line): \(step.summary)"
                out.append("      <failure type=\"\(step.reason.rawValue)\" message=\"\(escape(message))\">\(body)</failure>")
            } else if result.timedOut {
                let message = "\(result.path): " + (result.failures.first?.trimmingCharacters(in: .whitespaces) ?? "ran out of time")
                out.append("      <failure type=\"timedOut\" message=\"\(escape(message))\">\(body)</failure>")
            } else {
                let first = result.failures.first?.trimmingCharacters(in: .whitespaces) ?? "failed"
                out.append("      <failure message=\"\(escape(failing + first))\">\(body)</failure>")
            }
            out.append("    </testcase>")
        }
        out.append("  </testsuite>")
        out.append("</testsuites>")
        return out.map { $0 + "\n" }.joined()
    }

    static func format(_ seconds: Double) -> String {
        let ms = Int((seconds * 1000).rounded())
        return "\(ms / 1000).\(String(repeating: "0", count: 3 - String(ms % 1000).count))\(ms % 1000)"
    }

    /// XML text and attribute escaping; control characters XML forbids are dropped.
    static func escape(_ text: String) -> String { MarkupText.escape(text) }
}
