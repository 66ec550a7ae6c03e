import BioAuthProtocol
import Foundation
import Hummingbird

/// An answer to bad or unauthorised input: a 4xx status, a stable code and a message, in the
/// contract's error shape. Throwing one from a handler is the only way a handler fails on purpose.
struct APIError: HTTPResponseError, CustomStringConvertible {
    let code: ErrorCode
    let message: String
    /// For 429 answers: when to try again.
    var retryAfterSeconds: Int?
    init(_ code: ErrorCode, _ message: String, retryAfterSeconds: Int? = nil) {
        self.code = code
        self.message = message
        self.retryAfterSeconds = retryAfterSeconds
    }

    var status: HTTPResponse.Status { code.status }

    var description: String { "\(code.rawValue): \(message)" }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        if let retryAfterSeconds {
            headers[.retryAfter] = String(max(1, retryAfterSeconds))
        }
        let body = try WireJSON.makeEncoder().encode(ErrorResponse(code: code, message: message))
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

extension ErrorCode {
    /// The HTTP status the contract pairs with each code.
    var status: HTTPResponse.Status {
        switch self {
        case .invalidRequest, .invalidUsername, .invalidPassword, .invalidPIN, .invalidSessionDuration,
             .unsupportedAlgorithm, .invalidPublicKey, .invalidSignatureEncoding, .pinTooCommon:
            .badRequest
        case .invalidCredentials, .invalidSession, .challengeInvalid, .signatureInvalid:
            .unauthorized
        case .reauthenticationRequired, .passwordChangeRequired, .pinLocked:
            .forbidden
        case .notFound, .registrationNotFound:
            .notFound
        case .methodNotAllowed:
            .methodNotAllowed
        case .usernameTaken, .duplicateRegistration, .tooManyRegistrations:
            .conflict
        case .payloadTooLarge:
            .contentTooLarge
        case .locked, .rateLimited:
            .tooManyRequests
        case .internalError:
            .internalServerError
        }
    }
}
