import Foundation

/// Recognises a bank backend's service credential (``SessionToken/Format/serviceCredential``):
/// one read by its id, the stored SHA-256 compared in the query, a revoked one refused.
struct ServiceCredentialCheck: Sendable {
    let database: any DatabaseProvider

    /// The backend `text` names; `401 invalid_service_credential` when it names none live.
    func authenticate(_ text: String) async throws -> ServiceCaller {
        let refusal = Rejection(.invalidServiceCredential, "The service credential is unknown or revoked.")
        guard let lookup = SessionToken.lookup(text, format: .serviceCredential) else { throw refusal }
        guard let credential = try await database.read({ db in try await ServiceCredentialTable.live(db, lookup) }) else { throw refusal }
        return ServiceCaller(id: credential.id, name: credential.name)
    }
}
