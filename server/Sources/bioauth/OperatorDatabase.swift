import BioAuthServer

/// What an operator command opens on the server's database and closes when done
/// (``AdminCommand/withDatabase(flags:settings:open:_:)``).
protocol OperatorDatabase: Sendable {
    /// Closes the database.
    func close() async throws
}

extension AccountAdministration: OperatorDatabase {}
extension SigningKeyAdministration: OperatorDatabase {}
extension ServiceCredentialAdministration: OperatorDatabase {}
