import ChatTestSupport
import Foundation
import Testing

/// The workbench plays an app of the server's own (`--server URL --api-key
/// KEY`, the secret in CHATBENCH_APP_SECRET): a server started without the
/// demo app, with an app `chatbench apps add` made, is driven as the demo
/// app's server is, and the secret is in no recording (issue 26).
@Suite struct OperatorAppSessionTests {
    static let script =
        "login jwt bob\nstart conversation\nsend c1 text \"hello clinic\"\nagent say c1 \"hi bob\"\nauthorize carol --signed\nserver users\n"

    @Test func aServersOwnAppIsPlayedWithItsSecretFromTheEnvironment() throws {
        let folder = try TemporaryFolder()
        let serverDB = folder.url.appendingPathComponent("server.sqlite").path
        let recording = folder.url.appendingPathComponent("sessions.sqlite").path
        let added = try ChatbenchBinary.run(["apps", "add", "clinic-app", "--db", serverDB])
        let secret = added.stdout.trimmingCharacters(in: .newlines)
        var server: RunningServe? = try RunningServe(arguments: ["--db", serverDB, "--no-demo-app"])
        let url = try #require(server?.url, "serve said: \(server?.firstLine ?? "")")
        let run = try ChatbenchBinary.run(
            ["--server", url, "--api-key", "clinic-app", "--db", recording, "--name", "clinic"], input: Self.script,
            environment: ["CHATBENCH_APP_SECRET": secret])
        let demo = try ChatbenchBinary.run(["--server", url, "--no-record"], input: "server users\n")
        server = nil
        let replay = try ChatbenchBinary.run(["replay", "clinic", "--tape", "--db", recording])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("bob logged in on client with a JWT (no name)"), "the JWT is signed with the app's secret")
        #expect(run.stdout.contains("m2 = agent message in c1") && run.stdout.contains("carol authorized on client"))
        #expect(run.stdout.hasSuffix("bob: 1 conversation, 1 session\ncarol: 0 conversations, 1 session\n"), "\(run.stdout)")
        #expect(demo.status == 2 && demo.stderr.contains("as app demo-key: The API key is not known to the server"), "\(demo.stderr)")
        #expect(
            replay.status == 0 && replay.stdout.contains("6 steps replayed from the tape, identical"), "\(replay.stdout)\(replay.stderr)")
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.url.path) where file.hasPrefix("sessions.sqlite") {
            let bytes = try Data(contentsOf: folder.url.appendingPathComponent(file))
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "the secret is in \(file)")
        }
    }

    @Test func aMissingOrWrongSecretOrNoServerIsOneLineAndExit2() throws {
        let folder = try TemporaryFolder()
        let serverDB = folder.url.appendingPathComponent("server.sqlite").path
        _ = try ChatbenchBinary.run(["apps", "add", "clinic-app", "--db", serverDB])
        let server = try RunningServe(arguments: ["--db", serverDB, "--no-demo-app"])
        let url = try #require(server.url)
        let missing = try ChatbenchBinary.run(["--server", url, "--api-key", "clinic-app", "--no-record"], input: "server users\n")
        let wrong = try ChatbenchBinary.run(
            ["--server", url, "--api-key", "clinic-app", "--no-record"], input: "server users\n",
            environment: ["CHATBENCH_APP_SECRET": "not-the-secret"])
        let embedded = try ChatbenchBinary.run(["--api-key", "clinic-app", "--no-record"], input: "server users\n")
        #expect(
            missing.status == 2
                && missing.stderr
                    == "chatbench: --api-key clinic-app needs the app's secret in CHATBENCH_APP_SECRET (never in an argument)\n"
        )
        #expect(
            wrong.status == 2 && wrong.stderr == "chatbench: cannot use the server at \(url) as app clinic-app: The app secret is wrong\n",
            "\(wrong.stderr)")
        #expect(embedded.status == 2 && embedded.stderr.hasPrefix("chatbench: --api-key needs --server"), "\(embedded.stderr)")
        #expect(missing.stdout.isEmpty && wrong.stdout.isEmpty && embedded.stdout.isEmpty)
    }
}
