import Foundation

/// Non-secret client bookkeeping in the keychain (no access control, never prompts, readable by
/// an attacker who owns the process): who signed in last, and which registration this device
/// holds. It must survive an enrollment change, because that is when the stale registration
/// has to be revoked on the server.
struct PlainRecords: Sendable {
    let keychain: any KeychainBackend
    let service: String

    func load<Value: Decodable>(_ type: Value.Type, _ account: String) -> Value? {
        let query = KeychainQuery(itemClass: .genericPassword, service: service, account: account, returnData: true)
        let (status, data) = keychain.copyMatching(query)
        guard status == .success, let data else { return nil }
        return try? JSONDecoder().decode(Value.self, from: data)
    }

    func save(_ value: some Encodable, _ account: String) throws(BioAuthError) {
        let query = KeychainQuery(itemClass: .genericPassword, service: service, account: account)
        _ = keychain.delete(query)
        var add = query
        add.accessibility = .afterFirstUnlockThisDeviceOnly
        add.data = (try? JSONEncoder().encode(value)) ?? Data()
        let status = keychain.add(add)
        guard status == .success else { throw StatusMapping.error(for: status) }
    }

    func delete(_ account: String) {
        _ = keychain.delete(KeychainQuery(itemClass: .genericPassword, service: service, account: account))
    }
}

/// The registration this device holds.
struct EnrollmentRecord: Codable, Sendable {
    var userID: String
    var username: String
    var registrationID: String
    var algorithm: SignatureAlgorithm
    /// Set when the device lost the key; the registration then awaits revocation on the server.
    var lost: LocalKeyLoss?
    /// The device key's name; each registration has its own, so that a new one can be
    /// registered before the old one is given up.
    var keyName: String
    /// The App Attest key whose evidence the server verified with this registration: it asserts
    /// each confirmation this key approves.
    var appAttestKeyID: String? = nil
}

/// The PIN this device holds: the registration of its PIN key (see ``BioAuthClient/setPIN(_:keepBehindBiometrics:reauthentication:)``).
struct PINRecord: Codable, Sendable {
    var userID: String
    var username: String
    var registrationID: String
    var keyName: String
    /// The App Attest key whose evidence the server verified with this registration.
    var appAttestKeyID: String? = nil
}

/// The last account that signed in.
struct AccountRecord: Codable, Sendable {
    var userID: String
    var username: String
}

/// What the vault keeps behind biometrics after biometric sign-in is enabled.
struct StoredSession: Codable, Sendable {
    var sessionToken: String
    var registrationID: String?
}
