/// The bank's backend behind a request to `/v1/service/…`: the service credential it presented
/// (``ServiceCredentialAuthenticator``). Never a user's session, and never taken for one.
struct ServiceCaller: Sendable, Equatable {
    /// The credential's id, `svc_…`.
    var id: String
    /// The name the operator gave it.
    var name: String
}
