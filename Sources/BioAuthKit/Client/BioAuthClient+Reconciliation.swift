import Foundation

extension BioAuthClient {
    /// Brings this device and the server into agreement about the device's registration
    /// (needs a signed-in session; never prompts):
    /// - the server no longer has it active → the local key and secrets are deleted;
    /// - the device lost the key (an enrollment change deleted or invalidated it, or it was
    ///   deleted) → the registration is revoked on the server. Only a key that cannot sign counts:
    ///   a moved `evaluatedPolicyDomainState` alone (an OS update) changes nothing.
    ///
    /// - Returns: What was done, or `nil` when both sides already agree.
    @discardableResult
    public func reconcile() async throws(BioAuthError) -> ReconciliationAction? {
        let token = try requireToken()
        guard let record = enrollment, record.userID == current?.user.id else { return nil }
        if record.lost == nil, case .lost(let loss) = await keys.usability(ofKeyNamed: record.keyName) {
            _ = await markLost(record, loss)
        }
        if let action = try await revokeLostRegistration() { return action }
        let list = try await api.call(.listRegistrations, token: token, as: RegistrationListResponse.self)
        guard list.registrations.contains(where: { $0.id == record.registrationID && $0.status == .active }) else {
            await removeLocalRegistration()
            let action = ReconciliationAction.localRegistrationRemoved(registrationID: record.registrationID)
            lastReconciliation = action
            return action
        }
        return nil
    }

    /// Revokes on the server a registration whose key this device lost, when the signed-in
    /// user owns it.
    func revokeLostRegistration() async throws(BioAuthError) -> ReconciliationAction? {
        guard let token = current?.token, let record = enrollment, let loss = record.lost, record.userID == current?.user.id else { return nil }
        do {
            try await api.call(.deleteRegistration, id: record.registrationID, token: token)
        } catch  where error.serverCode == .registrationNotFound {
            // Already gone on the server: agreement reached all the same.
        }
        records.delete(Self.enrollmentRecord)
        let action = ReconciliationAction.serverRegistrationRevoked(registrationID: record.registrationID, reason: loss)
        lastReconciliation = action
        return action
    }
}
