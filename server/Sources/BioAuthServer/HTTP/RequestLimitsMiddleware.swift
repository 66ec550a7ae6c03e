import BioAuthProtocol
import Foundation
import Hummingbird
import Synchronization

/// Per-client-address request rate limit: at most `limit` requests per clock minute from one
/// address (an IPv6 /64 counts as one address, see ``ClientAddress``), then 429 `rate_limited` with `Retry-After` (the seconds left in the minute).
///
/// The counts live in this process's memory, so the limit holds per server instance; several
/// instances behind one balancer each allow `limit`. (Limits that protect stored state, such as
/// challenges per registration, are counted in the database instead.) Memory is bounded: only
/// the current minute's counters are kept.
final class AddressRateLimiter: Sendable {
    private struct Window {
        var start: Int64 = 0
        var counts: [String: Int] = [:]
    }

    let limit: Int
    private let time: TimeSource
    private let window = Mutex(Window())

    init(limit: Int, time: TimeSource) {
        self.limit = limit
        self.time = time
    }

    /// Counts one request from `address`; nil when admitted, else the seconds to wait.
    func admit(_ address: String) -> Int? {
        let now = time.now().millisecondsSince1970
        let start = now - now % 60_000
        return window.withLock { window in
            if window.start != start { window = Window(start: start) }
            let count = window.counts[address, default: 0]
            guard count < limit else {
                return Int((start + 60_000 - now + 999) / 1000)
            }
            window.counts[address] = count + 1
            return nil
        }
    }
}

/// Applies the request-head and per-address limits before any route runs.
struct RequestLimitsMiddleware: RouterMiddleware {
    typealias Context = BioAuthRequestContext
    let limiter: AddressRateLimiter
    let maxHeaderBytes: Int
    let trustForwardedFor: Bool
    /// How long a request's body may take to arrive (see ``DeadlineRequestBody``).
    let requestTimeout: Duration

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let address = ClientAddress.limitKey(clientAddress(request, context: context))
        if let wait = limiter.admit(address) {
            throw Rejection(.rateLimited, "Too many requests from this address; at most \(limiter.limit) a minute.", retryAfterSeconds: wait)
        }
        // Name, ": ", value and CRLF per field, plus the request line.
        let headBytes = request.headers.reduce(request.uri.description.utf8.count + 16) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count + 4 }
        guard headBytes <= maxHeaderBytes else {
            throw Rejection(.invalidRequest, "The request line and headers are larger than \(maxHeaderBytes) bytes.")
        }
        var request = request
        request.body = RequestBody(
            asyncSequence: DeadlineRequestBody(
                base: request.body,
                deadline: .now + requestTimeout,
                timeout: requestTimeout,
                channel: context.channel
            )
        )
        // Hashes this request costs count against its address's share (HashingBudget).
        return try await HashingBudget.$client.withValue(address) { try await next(request, context) }
    }

    /// The TCP peer, or (only when configured) the last `X-Forwarded-For` entry, which the
    /// trusted proxy itself appended.
    func clientAddress(_ request: Request, context: Context) -> String {
        if trustForwardedFor, let forwarded = request.headers.last(where: { $0.name.canonicalName == "x-forwarded-for" })?.value,
            let last = forwarded.split(separator: ",").last?.trimmingCharacters(in: .whitespaces), !last.isEmpty
        {
            return last
        }
        return context.remoteAddress ?? "unknown"
    }
}
