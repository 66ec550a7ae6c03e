import Foundation

/// The decisions about the access token a client hands out: whether the cached one is fresh
/// enough, whether a request for one is already under way, and what an answer or a change of
/// session does to the cache. It holds the current session's token only: the client drops it
/// whenever its session changes. The client (an actor) owns one and runs the requests.
///
/// Times are ``DeviceClock`` seconds: a deadline is when the answer arrived plus `expires_in`,
/// never the server's `expires_at` read against the device's date.
struct AccessTokenCache {
    /// A token is handed out only while at least this many seconds of it are left.
    static let minimumValidity: Double = 60

    /// The request under way, shared by every caller.
    typealias Flight = Task<Result<AccessToken, BioAuthError>, Never>

    /// What a caller does next.
    enum Step {
        /// Use this token.
        case use(AccessToken)
        /// Wait for the request under way.
        case wait(Flight)
        /// Start a request (``nextFlight()``, then ``started(_:number:)``).
        case fetch
    }

    private var cached: (token: AccessToken, deadline: Double)?
    private var flight: (number: Int, task: Flight)?
    private var flights = 0

    /// What a caller does at `now`.
    func step(now: Double) -> Step {
        if let cached, cached.deadline - now >= Self.minimumValidity { return .use(cached.token) }
        if let flight { return .wait(flight.task) }
        return .fetch
    }

    /// The number the next request's answer is recorded under.
    mutating func nextFlight() -> Int {
        flights += 1
        return flights
    }

    /// Request `number` is under way.
    mutating func started(_ task: Flight, number: Int) {
        flight = (number, task)
    }

    /// The answer to request `number`, received at `now` (and at `date` by the device's date): the
    /// token its callers get. Kept only when nothing dropped the cache since the request started.
    mutating func received(_ answer: AccessTokenResponse, number: Int, now: Double, date: Date) -> AccessToken {
        let lifetime = Double(answer.expiresIn)
        let token = AccessToken(token: answer.accessToken, expiresAt: date.addingTimeInterval(lifetime))
        if flight?.number == number {
            cached = (token, now + lifetime)
            flight = nil
        }
        return token
    }

    /// Request `number` failed: the next caller starts another.
    mutating func failed(number: Int) {
        if flight?.number == number { flight = nil }
    }

    /// Forgets the token and the request under way (a request already sent still answers its
    /// callers, but its token is not kept): whenever the client's session changes.
    mutating func drop() {
        cached = nil
        flight = nil
    }
}
