import Foundation

/// A value of the explore worker's protocol (``WorkerRequest`` on its
/// standard input, ``WorkerAnswer`` on its standard output): one JSON value
/// a line, written and read through its one type, so that the two sides
/// cannot disagree on its form (see ``TrialProgress``: they did).
protocol WorkerMessage: Codable {
    /// What a value is, in an error: `request`, `answer`.
    static var kind: String { get }
}

extension WorkerMessage {
    /// The value as one line of JSON (without its newline).
    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Only strings, numbers and arrays of them: nothing that does not encode.
        return String(decoding: (try? encoder.encode(self)) ?? Data("null".utf8), as: UTF8.self)
    }

    /// The value a line of JSON holds.
    init(json: Substring) throws(WorkerMessageError) {
        do {
            self = try JSONDecoder().decode(Self.self, from: Data(json.utf8))
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                throw WorkerMessageError(kind: Self.kind, line: String(json), reason: .notJSON)
            }
            throw WorkerMessageError(kind: Self.kind, line: String(json), reason: .unknownForm)
        } catch {
            throw WorkerMessageError(kind: Self.kind, line: String(json), reason: .notJSON)
        }
    }
}

/// A line of the worker's protocol that holds no value of its type: one
/// line that names it (shortened) and says why.
struct WorkerMessageError: Error, Hashable, CustomStringConvertible {
    enum Reason: Hashable {
        case notJSON
        /// JSON, but of no form the type has.
        case unknownForm
    }

    var kind: String
    var line: String
    var reason: Reason

    /// `unknown request "run 3": not JSON`.
    var description: String {
        let shown = line.count > 200 ? String(line.prefix(200)) + "…" : line
        let why = reason == .notJSON ? "not JSON" : "no \(kind) has this form"
        return "unknown \(kind) \(String(reflecting: shown)): \(why)"
    }
}
