import ChatTestSupport
import Foundation
import Testing

/// `chatbench apps` as an operator runs it (issue 26): the new secret alone
/// on standard output, once; what was done on standard error; a secret of
/// one's own from standard input, never from an argument.
@Suite struct AppsCommandTests {
    @Test func addPrintsTheNewSecretAloneAndListShowsTheAppWithoutIt() throws {
        let folder = try TemporaryFolder()
        let db = folder.url.appendingPathComponent("server.sqlite").path
        let add = try ChatbenchBinary.run(["apps", "add", "clinic-app", "--db", db])
        let list = try ChatbenchBinary.run(["apps", "list", "--db", db])
        let secret = add.stdout.trimmingCharacters(in: .newlines)
        #expect(add.status == 0, "\(add.stderr)")
        #expect(secret.count == 64 && secret.allSatisfy(\.isHexDigit) && add.stdout == secret + "\n", "\(add.stdout)")
        #expect(add.stderr.contains("app clinic-app added to \(db); sign-in by user id alone: off; its secret follows, shown this once"))
        #expect(
            list.status == 0 && list.stdout == "clinic-app: 0 users, 0 conversations; sign-in by user id alone: off\n", "\(list.stdout)")
        #expect(!list.stdout.contains(secret) && !list.stderr.contains(secret))
    }

    @Test func aSecretOfOnesOwnComesFromStandardInputAndIsNeverPrinted() throws {
        let folder = try TemporaryFolder()
        let db = folder.url.appendingPathComponent("server.sqlite").path
        let secret = "an-operator-secret-of-32-bytes-or-more"
        let add = try ChatbenchBinary.run(
            ["apps", "add", "own-app", "--db", db, "--secret-stdin", "--allow-user-id-only"], input: secret + "\n")
        let short = try ChatbenchBinary.run(["apps", "add", "short-app", "--db", db, "--secret-stdin"], input: "short\n")
        let none = try ChatbenchBinary.run(["apps", "add", "no-app", "--db", db, "--secret-stdin"])
        let json = try ChatbenchBinary.run(["apps", "list", "--db", db, "--json"])
        #expect(add.status == 0 && add.stdout.isEmpty && !add.stderr.contains(secret), "\(add.stdout) \(add.stderr)")
        #expect(add.stderr.contains("sign-in by user id alone: on"))
        #expect(short.status == 1 && short.stderr.contains("the secret is 5 bytes; at least 32"), "\(short.stderr)")
        #expect(none.status == 1 && none.stderr.contains("--secret-stdin read no secret"), "\(none.stderr)")
        #expect(json.stdout.contains(#""apiKey" : "own-app""#) && json.stdout.contains(#""allowUserIdOnly" : true"#))
        #expect(!json.stdout.contains("short-app") && !json.stdout.contains("no-app") && !json.stdout.contains(secret))
    }

    @Test func aFileThatIsNotAServersDatabaseIsRefusedInOneLine() throws {
        let folder = try TemporaryFolder()
        let notes = folder.url.appendingPathComponent("notes.txt").path
        try Data("my notes".utf8).write(to: URL(fileURLWithPath: notes))
        let add = try ChatbenchBinary.run(["apps", "add", "k", "--db", notes])
        let missing = try ChatbenchBinary.run(["apps", "list", "--db", folder.url.appendingPathComponent("none.sqlite").path])
        let duplicate = folder.url.appendingPathComponent("s.sqlite").path
        _ = try ChatbenchBinary.run(["apps", "add", "k", "--db", duplicate])
        let again = try ChatbenchBinary.run(["apps", "add", "k", "--db", duplicate])
        #expect(
            add.status == 1 && add.stderr == "chatbench apps: \(notes) is not a SQLite database (its first bytes are not SQLite's header)\n"
        )
        #expect(try Data(contentsOf: URL(fileURLWithPath: notes)) == Data("my notes".utf8))
        #expect(missing.status == 1 && missing.stderr.hasPrefix("chatbench apps: no such file: "))
        #expect(again.status == 1 && again.stderr == "chatbench apps add: an app with the API key k already exists\n", "\(again.stderr)")
        let empty = folder.url.appendingPathComponent("empty.sqlite").path
        _ = FileManager.default.createFile(atPath: empty, contents: nil)
        let listed = try ChatbenchBinary.run(["apps", "list", "--db", empty])
        #expect(listed.status == 0 && listed.stdout == "no apps in \(empty)\n", "\(listed.stderr)")
        #expect(try FileManager.default.attributesOfItem(atPath: empty)[.size] as? NSNumber == 0, "listing made no database")
    }
}
