import ChatSDK
import Testing

@testable import Workbench

/// The client's creation in a field recording carries its cache mode and
/// content setting as the SDK's enums from where the call is read (issue
/// 30): the export and the replay compare cases, not recorded strings.
@Suite struct FieldClientCallTests {
    @Test(arguments: ChatClient.CacheMode.allCases)
    func eachCacheModeIsReadAsItsCase(_ mode: ChatClient.CacheMode) {
        for content in ChatClient.Diagnostics.Content.allCases {
            let call = AppCall.client(cacheMode: mode.rawValue, autoResend: true, pageSize: 20, content: content.rawValue)
            #expect(FieldCall(call) == .client(cacheMode: mode, autoResend: true, pageSize: 20, redacted: content == .redacted))
            // The recorded value, through its JSON, reads the same.
            #expect(call.json.flatMap(AppCall.init(json:)).map(FieldCall.init) == FieldCall(call))
        }
    }

    /// A mode or a content setting a newer SDK may record: the replay runs
    /// such a client in memory (as it always has), its texts as kept.
    @Test func anUnknownSettingReadsAsTheReplayRunsIt() {
        let call = AppCall.client(cacheMode: "cloud", autoResend: false, pageSize: 30, content: "hashed")
        #expect(FieldCall(call) == .client(cacheMode: .memory, autoResend: false, pageSize: 30, redacted: false))
        #expect(
            FieldCall(legacyText: "ChatClient(configuration: cacheMode: .cloud, autoResend: true, pageSize: 20, content: .kept)")
                == .client(cacheMode: .memory, autoResend: true, pageSize: 20, redacted: false))
    }
}
