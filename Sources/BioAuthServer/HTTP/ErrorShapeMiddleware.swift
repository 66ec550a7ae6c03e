import BioAuthProtocol
import Hummingbird
import Logging

/// The outermost middleware: whatever goes wrong, the client gets the contract's error shape.
///
/// ``APIError``s pass through. Hummingbird's own errors (no such route, body too large, …) are
/// given a stable code. Anything else is a server fault: logged (by type and description only,
/// which never include request bodies) and answered 500 `internal_error`.
struct ErrorShapeMiddleware: RouterMiddleware {
    typealias Context = BioAuthRequestContext
    let catalog: RouteCatalog

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            throw error
        } catch let error as any HTTPResponseError {
            if error.status == .notFound, !catalog.methods(matching: request.uri.path).isEmpty {
                throw APIError(.methodNotAllowed, "This endpoint does not accept \(request.method.rawValue).")
            }
            throw Self.apiError(for: error.status)
        } catch {
            context.logger.error("unhandled error", metadata: ["error.type": "\(type(of: error))", "error": "\(error)"])
            throw APIError(.internalError, "The server failed to answer this request.")
        }
    }

    static func apiError(for status: HTTPResponse.Status) -> APIError {
        switch status {
        case .notFound: APIError(.notFound, "No such endpoint.")
        case .contentTooLarge: APIError(.payloadTooLarge, "The body is larger than 64 KiB.")
        case .unauthorized: APIError(.invalidSession, "Sign in first.")
        case .tooManyRequests: APIError(.rateLimited, "Too many requests.", retryAfterSeconds: 60)
        default:
            status.code < 500
                ? APIError(.invalidRequest, "The request is malformed.")
                : APIError(.internalError, "The server failed to answer this request.")
        }
    }
}
