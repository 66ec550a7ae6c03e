@_spi(DeviceSeam) import BioAuthKit
import BioAuthSimulator
import Foundation
import Testing

/// The queries the platform-neutral code builds: exactly what the Apple layer passes through.
@Suite("Queries: flags, accessibility, contexts decided in neutral code")
struct QueryConstructionTests {
    private func protectedAdds(_ spy: QuerySpy, account: String) -> [KeychainQuery] {
        spy.calls.compactMap { if case .add(let query) = $0, query.account == account { query } else { nil } }
    }

    @Test("default policy: biometryCurrentSet with WhenPasscodeSetThisDeviceOnly; replace is delete + add, never an update")
    func defaultPolicyQuery() async throws {
        let spy = QuerySpy(device: SimulatedDevice())
        let vault = BiometricVault(service: "svc", backends: spy.backends)
        try await vault.store(Data("1".utf8), named: "token")
        try await vault.store(Data("2".utf8), named: "token")
        let adds = protectedAdds(spy, account: "token")
        #expect(adds.count == 2)
        for add in adds {
            #expect(add.accessibility == .whenPasscodeSetThisDeviceOnly)
            #expect(add.accessControl == .biometryCurrentSet)
            #expect(add.authenticationContext == nil)
        }
        let sequence = spy.calls.compactMap { call -> String? in
            switch call {
            case .delete(let q) where q.account == "token": "delete"
            case .add(let q) where q.account == "token": "add"
            default: nil
            }
        }
        #expect(sequence == ["delete", "add", "delete", "add"])
    }

    @Test(
        "opt-in policies map to biometryAny and userPresence",
        arguments: [
            (BiometricPolicy.anyBiometrics, AccessControlFlags.biometryAny), (.biometricsOrPasscode, .userPresence),
        ]
    )
    func optInPolicies(policy: BiometricPolicy, flags: AccessControlFlags) async throws {
        let spy = QuerySpy(device: SimulatedDevice())
        try await BiometricVault(service: "svc", backends: spy.backends).store(Data("1".utf8), named: "token", policy: policy)
        #expect(protectedAdds(spy, account: "token").first?.accessControl == flags)
    }

    @Test("each read gets a fresh context carrying the prompt; the existence check sets interactionNotAllowed")
    func readsAndExistence() async throws {
        let spy = QuerySpy(device: SimulatedDevice())
        let vault = BiometricVault(service: "svc", backends: spy.backends)
        try await vault.store(Data("1".utf8), named: "token")
        spy.device.willAnswer(.present("owner"), .present("owner"))
        _ = try await vault.read("token", prompt: "first")
        _ = try await vault.read("token", prompt: "second")
        _ = try await vault.contains("token")
        let copies = spy.calls.compactMap { if case .copy(let q) = $0, q.service == "svc" { q } else { nil } }
        #expect(copies.count == 3)
        #expect(copies[0].operationPrompt == "first" && copies[0].returnData && !copies[0].interactionNotAllowed)
        #expect(copies[1].operationPrompt == "second")
        let first = try #require(copies[0].authenticationContext)
        let second = try #require(copies[1].authenticationContext)
        #expect(first !== second)
        #expect(copies[2].interactionNotAllowed && !copies[2].returnData)
    }

    @Test("ES256 keys: Secure Enclave, privateKeyUsage + biometryCurrentSet, WhenPasscodeSetThisDeviceOnly")
    func secureEnclaveKeyQuery() async throws {
        let spy = QuerySpy(device: SimulatedDevice())
        _ = try await DeviceKeyStore(service: "svc", backends: spy.backends).createKey(named: "k")
        let creates = spy.calls.compactMap { if case .createKey(let q) = $0 { q } else { nil } }
        let create = try #require(creates.first)
        #expect(creates.count == 1)
        #expect(create.secureEnclave && create.itemClass == .key)
        #expect(create.accessControl == [.privateKeyUsage, .biometryCurrentSet])
        #expect(create.accessibility == .whenPasscodeSetThisDeviceOnly)
    }
}
