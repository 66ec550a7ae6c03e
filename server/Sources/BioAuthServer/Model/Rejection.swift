import BioAuthProtocol

/// Why a request is refused, as the contract names it: a stable code, a message for the
/// developer, and for a rate limit when to try again. Services and the HTTP layer throw it; how it
/// becomes an HTTP answer (status and error shape) is decided in one place, `Rejection+HTTP.swift`.
struct Rejection: Error, CustomStringConvertible {
    /// The contract's error code.
    let code: ErrorCode
    /// What went wrong, for the developer reading the answer.
    let message: String
    /// For a rate limit or a lockout: seconds until a retry may succeed.
    var retryAfterSeconds: Int?
    /// For `attestation_refused`: the code of the rule the evidence broke.
    var reason: String?

    init(_ code: ErrorCode, _ message: String, retryAfterSeconds: Int? = nil, reason: String? = nil) {
        self.code = code
        self.message = message
        self.retryAfterSeconds = retryAfterSeconds
        self.reason = reason
    }

    var description: String { "\(code.rawValue): \(message)" }
}
