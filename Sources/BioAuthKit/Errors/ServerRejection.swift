import BioAuthProtocol

/// A contract error answer from the server.
public struct ServerRejection: Hashable, Sendable {
    /// The stable code, for decisions.
    public var code: ErrorCode
    /// The HTTP status.
    public var status: Int
    /// The server's human text, for logs.
    public var message: String
    /// Seconds to wait (`Retry-After`), on `429` answers.
    public var retryAfterSeconds: Int?
    /// For `attestation_refused`: the stable code of the rule the key's hardware evidence broke
    /// (`app_not_allowed`, `environment`, …; openapi.yaml lists them).
    public var reason: String?

    /// Creates a rejection value.
    public init(code: ErrorCode, status: Int, message: String, retryAfterSeconds: Int? = nil, reason: String? = nil) {
        self.code = code
        self.status = status
        self.message = message
        self.retryAfterSeconds = retryAfterSeconds
        self.reason = reason
    }
}
