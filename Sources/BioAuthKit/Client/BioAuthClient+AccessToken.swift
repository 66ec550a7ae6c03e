import Foundation

extension BioAuthClient {
    /// An access token for the app's own backend (`POST /v1/sessions/current/access-token`), valid
    /// for at least the next minute: the cached one while it has a minute left, else a new one. However
    /// many callers ask at once, one request is made and they share its answer. Needs only the
    /// session the client holds: never a prompt.
    ///
    /// The cached token is forgotten on sign-out, on a new sign-in, when the session ends and after
    /// a re-authentication (a new token then carries the fresh `auth_time`, for a backend that asks
    /// for a recent one).
    ///
    /// - Throws: ``BioAuthError/notSignedIn``; ``BioAuthError/server(_:)`` with `invalid_session`
    ///   when the session has ended on the server (the client is then signed out); transport errors.
    public func accessToken() async throws(BioAuthError) -> AccessToken {
        while true {
            let session = try requireToken()
            let flight: AccessTokenCache.Flight
            switch accessTokens.step(now: clock.seconds()) {
            case .use(let token): return token
            case .wait(let shared): flight = shared
            case .fetch: flight = requestAccessToken(session: session)
            }
            switch await flight.value {
            case .failure(let error): throw error
            // Signed out or in anew while it was under way: decide again for the client's session now.
            case .success(let token): if current?.token == session { return token }
            }
        }
    }

    /// Starts the one request for `session`'s token; its answer goes to the cache before callers see it.
    private func requestAccessToken(session: String) -> AccessTokenCache.Flight {
        let number = accessTokens.nextFlight()
        let flight = Task { () -> Result<AccessToken, BioAuthError> in
            do throws(BioAuthError) {
                let answer = try await api.call(.createAccessToken, token: session, as: AccessTokenResponse.self)
                return .success(accessTokens.received(answer, number: number, now: clock.seconds(), date: Date()))
            } catch {
                accessTokens.failed(number: number)
                if error.serverCode == .invalidSession, current?.token == session { current = nil }
                return .failure(error)
            }
        }
        accessTokens.started(flight, number: number)
        return flight
    }
}
