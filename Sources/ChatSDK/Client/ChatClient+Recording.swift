internal import ChatCore

/// How the client feeds its flight recorder (issue 27): the app's calls as
/// they are made, with how they ended, and the client's events.
extension ChatClient {
    /// The SDK's version, written in a flight recording's header.
    public static let sdkVersion = "0.1.0"

    /// The recorder the configuration asks for, with `configuration` changed
    /// to feed it (its transport wrapped, its events observed); nil and a
    /// reason when it is off or its file cannot be used.
    static func startRecorder(_ configuration: inout Configuration) -> (FlightRecorder?, problem: String?) {
        guard let settings = configuration.diagnostics else { return (nil, nil) }
        let recorder: FlightRecorder
        do {
            recorder = try FlightRecorder(settings: settings, runtime: configuration.runtime, apiKey: configuration.apiKey)
        } catch {
            return (nil, "The flight recorder is off: \(settings.file) cannot be used (\(error))")
        }
        configuration.transport = TapeRecordingTransport(
            wrapping: configuration.transport, runtime: configuration.runtime, sink: recorder.traffic)
        configuration.flightRecorder = recorder
        let appOnEvent = configuration.onEvent
        configuration.onEvent = { event in
            recorder.record(event)
            appOnEvent?(event)
        }
        recorder.call(
            .client(
                cacheMode: configuration.cacheMode.rawValue, autoResend: configuration.autoResend, pageSize: configuration.pageSize,
                content: settings.content.rawValue))
        return (recorder, nil)
    }

    /// Records `call`, runs it, and records how it ended.
    func recorded<T>(_ call: @autoclosure () -> AppCall, _ body: () async throws -> T) async throws -> T {
        guard let recorder else { return try await body() }
        let call = call()
        recorder.call(call)
        do {
            let result = try await body()
            recorder.event(.returned(call: call.name, value: Self.describe(result)))
            return result
        } catch {
            let chatError = error as? ChatError
            recorder.event(.threw(call: call.name, code: chatError.map { "\($0.code)" }, message: chatError?.message ?? "\(error)"))
            throw error
        }
    }

    /// The same for a call that cannot fail.
    func recorded<T>(_ call: @autoclosure () -> AppCall, _ body: () async -> T) async -> T {
        guard let recorder else { return await body() }
        recorder.call(call())
        return await body()
    }

    /// A message's text as the settings keep it: in clear, or its summary.
    func kept(_ text: String) -> String {
        recorder?.text(text) ?? text
    }

    /// A placeholder standing for a secret in everything recorded.
    func secret(_ value: String) -> String {
        recorder?.secret(value) ?? "<secret>"
    }

    private static func describe(_ value: Any) -> AppEvent.Returned {
        switch value {
        case let message as Message: .message(id: message.id, state: message.state.kind, error: message.state.recordedError)
        case let conversation as Conversation: .conversation(id: conversation.id)
        case let user as ChatUser: .user(id: user.id)
        case let warnings as [String]: .warnings(warnings)
        default: .nothing
        }
    }
}

extension FlightRecorder {
    /// An event the client publishes, as its value.
    func record(_ event: ChatEvent) {
        switch event {
        case .sessionChanged(let state): self.event(.session(state: AppEvent.Session(state)))
        case .connectionChanged(let state): self.event(.connection(state: AppEvent.Connection(state)))
        case .warning(let text): self.event(.warning(text: text))
        case .authenticationFailed(let error): self.event(.authentication(event: .failed(code: "\(error.code)")))
        case .sessionWasRefreshed: self.event(.authentication(event: .sessionRefreshed))
        case .sessionWasClosed: self.event(.authentication(event: .sessionClosed))
        case .sessionDidHaveError(let error): self.event(.authentication(event: .sessionError(code: "\(error.code)")))
        case .messageStateChanged(let message):
            self.event(
                .message(
                    id: message.id, state: message.state.kind, error: message.state.recordedError,
                    content: AppCall.Content(message.content, text: text)))
        }
    }
}

extension ChatClient {
    /// A `ChatAuth` as recorded: its secrets as placeholders.
    func recordedAuth(_ auth: ChatAuth?) -> AppCall.Auth? {
        guard let auth else { return nil }
        // Placeholders are numbered as they are asked for: in the order the text shows them.
        let token = auth.token.map(secret)
        var headers: [String: String] = [:]
        for (name, value) in auth.headers.sorted(by: { $0.key < $1.key }) { headers[name] = secret(value) }
        return AppCall.Auth(token: token, scheme: auth.scheme, headers: headers, signature: auth.signature.map(secret))
    }

    /// A message's content as recorded: its text as the settings keep it.
    func recordedContent(_ content: MessageContent) -> AppCall.Content {
        AppCall.Content(content, text: kept)
    }
}

extension FlightRecorder {
    /// A watcher's emission in summary: `w1: 3 items (m-1 sent, …), fresh, refreshed`.
    func emission(_ id: Int, _ snapshot: WatcherSnapshot, fresh: Bool, refreshing: RefreshingState) {
        let shown: AppEvent.Shown =
            switch snapshot {
            case .conversations(let list, let hasMore): .conversations(count: list.count, hasMore: hasMore)
            case .conversation(let conversation): .conversation(id: conversation.id)
            case .items(let messages, let hasMore):
                .items(
                    count: messages.count, hasMore: hasMore,
                    first: messages.prefix(AppEvent.Shown.itemsShown).map {
                        .init(id: $0.id, state: $0.state.kind, error: $0.state.recordedError)
                    })
            }
        event(.emission(watcher: id, shown: shown, fresh: fresh, refreshing: AppEvent.Refreshing(refreshing)))
    }

    /// `w1` for the client's first watcher (its ids count from 0), as the workbench names them.
    package static func watcherName(_ id: Int) -> String { "w\(id + 1)" }

    /// A watcher ended by itself (an error) or because it was stopped.
    func watcherEnded(_ id: Int?, _ error: (any Error)?) {
        guard let error else { return }
        event(.watcherEnded(watcher: id, reason: (error as? ChatError).map { "\($0.code)" } ?? "\(error)"))
    }
}

extension WatchTarget {
    /// The public call that opens a watcher of this target.
    var recordedCall: AppCall {
        switch self {
        case .conversations: .watchConversations
        case .conversation(let id): .watchConversation(id: id)
        case .items(let id): .watchItems(conversation: id)
        }
    }
}

extension SendState {
    /// A failed message's error code, as recorded.
    var recordedError: String? {
        if case .failed(let error) = self { "\(error.code)" } else { nil }
    }
}
