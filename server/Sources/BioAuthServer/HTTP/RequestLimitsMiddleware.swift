import Hummingbird

/// Applies the request-head limit before any route runs, and names the client address a
/// request's hashes count against (``HashingBudget``). The body's deadline is the connection's
/// (``RequestDeadlineHandler``).
struct RequestLimitsMiddleware: RouterMiddleware {
    typealias Context = BioAuthRequestContext
    let maxHeaderBytes: Int
    let trustForwardedFor: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // Name, ": ", value and CRLF per field, plus the request line.
        let headBytes = request.headers.reduce(request.uri.description.utf8.count + 16) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count + 4 }
        guard headBytes <= maxHeaderBytes else {
            throw Rejection(.invalidRequest, "The request line and headers are larger than \(maxHeaderBytes) bytes.")
        }
        // Hashes this request costs count against its address's share (HashingBudget).
        let address = ClientAddress.limitKey(of: request, context: context, trustForwardedFor: trustForwardedFor)
        return try await HashingBudget.$client.withValue(address) { try await next(request, context) }
    }
}
