import Testing

@testable import Workbench

/// `login jwt`'s flawed JWTs (SPEC A5) and what `authorize` says offline (A12).
@Suite struct IdentityVerbTests {
    @Test(arguments: [
        ("--no-exp", "The JWT has no exp claim"),
        ("--no-external-id", "The JWT has no external_id claim"),
        ("--alg HS384", "The JWT must be signed with HS256, not \"HS384\""),
        ("--alg none", "The JWT must be signed with HS256, not \"none\""),
        ("--nbf 10m", "The JWT is not valid yet (nbf)"),
    ])
    func theServerRefusesAFlawedJWT(option: String, message: String) throws {
        let (session, results) = try run(["login jwt alice \(option)", "expect client.user == none"])
        #expect(results[0].output.contains(message), "\(results[0].output)")
        #expect(results[1].status == .ok)
        #expect(session.exitStatus == 0)
    }

    @Test func aNotBeforeWithinTheClockSkewIsAccepted() throws {
        let (_, results) = try run(["login jwt alice --nbf 30s", "expect client.auth == jwt"])
        #expect(results[1].status == .ok, "\(results.map(\.output))")
    }

    @Test func expAndNoExpTogetherAreRefused() throws {
        let (_, results) = try run(["login jwt alice --exp 5m --no-exp"])
        #expect(results[0].status == .scriptError)
        #expect(results[0].output == "script error: login jwt takes --exp or --no-exp, not both\n")
    }

    @Test func anOfflineAuthorizeSaysWhatItTried() throws {
        let (_, results) = try run(["net offline", "authorize u-1"])
        let first = results[1].output.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix("u-1 authorized on client ("), "\(first)")
        #expect(first.contains("failed offline"), "\(first)")
        #expect(!first.contains("no request"), "\(first)")
    }

    @Test func requestsTriedNamesTheOfflineFailures() {
        #expect(CommandTable.requestsTried(0, failedOffline: 0) == "no request")
        #expect(CommandTable.requestsTried(2, failedOffline: 0) == "2 requests")
        #expect(CommandTable.requestsTried(0, failedOffline: 1) == "1 request failed offline")
        #expect(CommandTable.requestsTried(1, failedOffline: 2) == "1 request, 2 failed offline")
    }
}

@Suite struct DelegateModeTests {
    @Test func aDelegateThatThrowsTakesTheErrorPath() throws {
        let (_, results) = try run([
            "delegate fail", "connect dave --session-token --ttl 10m", "clock advance 11m", "expect delegate.calls == 1",
        ])
        #expect(results[2].output.contains("sessionDidHaveError"), "\(results[2].output)")
        #expect(results[3].status == .ok, "\(results[3].output)")
    }
}
