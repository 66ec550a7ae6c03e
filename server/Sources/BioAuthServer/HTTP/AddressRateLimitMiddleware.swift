import Hummingbird

/// The per-address request limit (``AddressRateLimiter``): one more request is 429 `rate_limited`
/// with `Retry-After`, before its route runs. It counts every route added after it, and requests
/// that match no route.
struct AddressRateLimitMiddleware: RouterMiddleware {
    typealias Context = BioAuthRequestContext
    let limiter: AddressRateLimiter
    let trustForwardedFor: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let wait = limiter.admit(ClientAddress.limitKey(of: request, context: context, trustForwardedFor: trustForwardedFor)) {
            throw Rejection(.rateLimited, "Too many requests from this address; at most \(limiter.limit) a minute.", retryAfterSeconds: wait)
        }
        return try await next(request, context)
    }
}
