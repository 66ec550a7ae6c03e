import BioAuthProtocol
import Foundation
import Hummingbird

/// A rejection as the contract answers it: the status its code pairs with, a `Retry-After` for
/// rate limits and lockouts, and the error shape. The one place a code becomes an HTTP status.
extension Rejection: HTTPResponseError {
    var status: HTTPResponse.Status { code.status }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        if let retryAfterSeconds {
            headers[.retryAfter] = String(max(1, retryAfterSeconds))
        }
        let body = try WireJSON.makeEncoder().encode(ErrorResponse(code: code, message: message, reason: reason))
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

extension ErrorCode {
    /// The HTTP status the contract pairs with each code.
    var status: HTTPResponse.Status {
        switch self {
        case .invalidRequest, .invalidUsername, .invalidPassword, .invalidPIN, .invalidSessionDuration,
            .unsupportedAlgorithm, .invalidPublicKey, .invalidSignatureEncoding, .pinTooCommon, .passkeyInvalid, .userVerificationRequired,
            .invalidConfirmation, .invalidAmount, .invalidCurrency, .invalidConfirmationText, .confirmationTooLarge:
            .badRequest
        case .invalidCredentials, .invalidSession, .challengeInvalid, .signatureInvalid, .passkeyUnknown, .invalidServiceCredential:
            .unauthorized
        case .reauthenticationRequired, .passwordChangeRequired, .pinLocked, .passwordLocked, .csrfFailed, .attestationRequired, .attestationRefused,
            .confirmationFactorNotAllowed, .appAttestAssertionInvalid:
            .forbidden
        case .notFound, .registrationNotFound, .accountNotFound:
            .notFound
        case .methodNotAllowed:
            .methodNotAllowed
        case .usernameTaken, .duplicateRegistration, .tooManyRegistrations, .confirmationClosed:
            .conflict
        case .payloadTooLarge:
            .contentTooLarge
        case .locked, .rateLimited:
            .tooManyRequests
        case .unavailable:
            .serviceUnavailable
        default:
            // internal_error, and nothing else: the server makes only the codes it knows.
            .internalServerError
        }
    }
}
