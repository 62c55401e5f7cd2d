internal import ChatCore

extension ClientCore {
    /// Performs a user-scoped request: authenticates first, and replays it
    /// once after a refresh when the server says the token expired (A2).
    /// A call in flight across a clear or a new user fails with
    /// `userCleared`: the session machine forgot its id.
    func request(_ request: WireRequest) async throws -> WireResponse {
        let call = machine.openCall()
        defer { machine.closeCall(call) }
        return try await self.request(request, in: call)
    }

    /// The same, as part of `call` (``SessionMachine/openCall()``), which
    /// the caller opened and closes: it asks `machine.isOpen(call)` before
    /// keeping what the answer brings.
    func request(_ request: WireRequest, in call: Int) async throws -> WireResponse {
        var replayed = false
        while true {
            let token = try await accessToken()
            try check(call)
            do {
                return try await performRaw(request, token: token, for: call)
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
    ///
    /// `id` is the app call or authentication attempt the request is made
    /// for (``SessionMachine/counts(_:)``); nil for a request of the
    /// client's own, of no user (a queued logout).
    func performRaw(_ request: WireRequest, token: String?, for id: Int?) async throws -> WireResponse {
        let envelope = WireEnvelope(
            apiKey: configuration.apiKey, accessToken: token, deviceId: deviceId,
            request: aliases.withLock { $0.outgoing(request) }, headers: machine.credential?.headers ?? [:])
        do {
            let answer = try await configuration.transport.perform(envelope)
            // Unless the user changed meanwhile (the call or attempt no
            // longer counts): the aliases are the user's, in their store.
            guard let id, machine.counts(id) else { return answer }
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
