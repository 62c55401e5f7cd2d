internal import ChatCore

extension ClientCore {
    /// Performs a user-scoped request: authenticates first, and replays it
    /// once after a refresh when the server says the token expired (A2).
    /// A call in flight across a clear or a new user fails with
    /// `userCleared`: the session machine forgot its id.
    func request(_ request: WireRequest) async throws -> WireResponse {
        let call = machine.openCall()
        defer { machine.closeCall(call) }
        var replayed = false
        while true {
            let token = try await accessToken()
            try check(call)
            do {
                return try await performRaw(request, token: token)
            } catch let error as ChatError {
                switch machine.refused(call, code: error.code, token: token, replayed: replayed) {
                case .userChanged: throw SessionMachine.userChanged
                case .replay: replayed = true
                case .endSession(let actions):
                    perform(actions)
                    throw ChatError(.sessionClosed, "The server refused the access token as invalid; the session was closed")
                case .fail: throw error
                }
            }
        }
    }

    /// One request as it is, errors turned into `ChatError`.
    /// Conversation ids leave as the server knows them and come back as the
    /// app named them (ConversationAliases).
    func performRaw(_ request: WireRequest, token: String?) async throws -> WireResponse {
        let envelope = WireEnvelope(
            apiKey: configuration.apiKey, accessToken: token, deviceId: deviceId,
            request: aliases.withLock { $0.outgoing(request) }, headers: machine.credential?.headers ?? [:])
        let store = self.store
        do {
            let answer = try await configuration.transport.perform(envelope)
            // Unless the user changed meanwhile: their aliases are in their store.
            guard store === self.store else { return answer }
            return aliases.withLock { aliases in
                if let minted = aliases.minted(by: request, answer: answer) {
                    store.addConversationAlias(localId: minted.localId, serverId: minted.serverId)
                    aliases.add(localId: minted.localId, serverId: minted.serverId)
                }
                return aliases.incoming(answer)
            }
        } catch let error as WireError {
            throw ChatError(error)
        } catch let error as TransportError {
            throw ChatError(error)
        } catch is CancellationError {
            throw ChatError(.userCleared, "The request was cancelled")
        }
    }

    /// Throws `userCleared` when the user was cleared or set again since
    /// `call` started.
    func check(_ call: Int) throws {
        guard machine.isOpen(call) else { throw SessionMachine.userChanged }
    }
}
