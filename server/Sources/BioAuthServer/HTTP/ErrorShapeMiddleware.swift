import BioAuthProtocol
import Hummingbird
import Logging

/// The outermost middleware: whatever goes wrong, the client gets the contract's error shape.
///
/// ``Rejection``s pass through. Hummingbird's own errors (no such route, body too large, …) are
/// given a stable code. A database that cannot work now (``DatabaseUnavailable``, which its
/// provider logs once per outage) is 503 `unavailable`. Anything else is a server fault: logged
/// (by type and description only, which never include request bodies) and answered 500
/// `internal_error`.
struct ErrorShapeMiddleware: RouterMiddleware {
    typealias Context = BioAuthRequestContext
    let routes: KnownRoutes

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as Rejection {
            throw error
        } catch let error as any HTTPResponseError {
            if error.status == .notFound, !routes.methods(matching: request.uri.path).isEmpty {
                throw Rejection(.methodNotAllowed, "This endpoint does not accept \(request.method.rawValue).")
            }
            throw Self.apiError(for: error.status)
        } catch is DatabaseUnavailable {
            throw Rejection(.unavailable, "The database is not answering; start again in a moment.", retryAfterSeconds: 2)
        } catch {
            context.logger.error("unhandled error", metadata: ["error.type": "\(type(of: error))", "error": "\(error)"])
            throw Rejection(.internalError, "The server failed to answer this request.")
        }
    }

    static func apiError(for status: HTTPResponse.Status) -> Rejection {
        switch status {
        case .notFound: Rejection(.notFound, "No such endpoint.")
        case .contentTooLarge: Rejection(.payloadTooLarge, "The body is larger than 64 KiB.")
        case .unauthorized: Rejection(.invalidSession, "Sign in first.")
        case .tooManyRequests: Rejection(.rateLimited, "Too many requests.", retryAfterSeconds: 60)
        default:
            status.code < 500
                ? Rejection(.invalidRequest, "The request is malformed.")
                : Rejection(.internalError, "The server failed to answer this request.")
        }
    }
}
