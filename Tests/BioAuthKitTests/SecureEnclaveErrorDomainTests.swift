@_spi(DeviceSeam) import BioAuthSimulator
import Foundation
import Testing

@_spi(DeviceSeam) @testable import BioAuthKit

/// A Secure Enclave signature reports the user's answer in LocalAuthentication's (or
/// CryptoTokenKit's) error domain, not as an OSStatus: the mapping goes by domain and code, so
/// cancel, failed match, lockout, not-found and not-interactive stay distinct on a real device.
@Suite("Errors: the Secure Enclave's error domains")
struct SecureEnclaveErrorDomainTests {
    /// A fixture with an ES256 key, and the raw status of one signature with it.
    private func signRaw(_ fixture: DeviceFixture) async throws -> KeychainStatus {
        let query = KeychainQuery(
            itemClass: .key,
            service: "com.example.bank.keys",
            account: "k",
            authenticationContext: fixture.device.makeContext(),
            operationPrompt: "raw"
        )
        let (status, handle) = fixture.device.copyKey(query)
        #expect(status == .success)
        return fixture.device.createSignature(try #require(handle), message: Data("m".utf8)).status
    }

    @Test("cancel at a Secure Enclave signature: LAErrorDomain -2 → userCanceled")
    func cancel() async throws {
        let fixture = DeviceFixture()
        _ = try await fixture.keys.createKey(named: "k")
        fixture.device.willAnswer(.cancel)
        #expect(try await signRaw(fixture) == .localAuthentication(.userCancel))
        fixture.device.willAnswer(.cancel)
        #expect(await caught { try await fixture.keys.sign(bytes: Data("m".utf8), withKeyNamed: "k", prompt: "p") } == .userCanceled)
    }

    @Test("a face that does not match at a Secure Enclave signature: LAErrorDomain -1 → authenticationFailed")
    func failedMatch() async throws {
        let fixture = DeviceFixture()
        _ = try await fixture.keys.createKey(named: "k")
        fixture.device.willAnswer(.presentUnenrolled, .presentUnenrolled)
        #expect(try await signRaw(fixture) == .localAuthentication(.authenticationFailed))
        fixture.device.willAnswer(.present("stranger"), .present("stranger"))
        #expect(await caught { try await fixture.keys.sign(bytes: Data("m".utf8), withKeyNamed: "k", prompt: "p") } == .authenticationFailed)
    }

    @Test("a Secure Enclave signature during a lockout: LAErrorDomain -8 → biometryLockout")
    func lockout() async throws {
        let fixture = DeviceFixture()
        _ = try await fixture.keys.createKey(named: "k")
        for _ in 0..<5 {
            fixture.device.willAnswer(.presentUnenrolled)
            _ = await caught { try await fixture.keys.sign(bytes: Data("m".utf8), withKeyNamed: "k", prompt: "p") }
        }
        #expect(fixture.device.isBiometryLockedOut)
        fixture.device.willAnswer(.passcode("123456"))
        #expect(try await signRaw(fixture) == .localAuthentication(.biometryLockout))
        fixture.device.willAnswer(.passcode("123456"))
        #expect(await caught { try await fixture.keys.sign(bytes: Data("m".utf8), withKeyNamed: "k", prompt: "p") } == .biometryLockout)
    }

    @Test(
        "the same event is the same error whichever domain reports it",
        arguments: [
            (KeychainStatus.userCanceled, BioAuthError.userCanceled),
            (.localAuthentication(.userCancel), .userCanceled),
            (.localAuthentication(.systemCancel), .userCanceled),
            (.cryptoTokenKit(-4), .userCanceled),
            (.authFailed, .authenticationFailed),
            (.localAuthentication(.authenticationFailed), .authenticationFailed),
            (.cryptoTokenKit(-5), .authenticationFailed),
            (.localAuthentication(.biometryLockout), .biometryLockout),
            (.itemNotFound, .itemNotFound),
            (.cryptoTokenKit(-6), .itemNotFound),
            (.cryptoTokenKit(-7), .itemNotFound),
            (.interactionNotAllowed, .interactionNotAllowed),
            (.localAuthentication(.notInteractive), .interactionNotAllowed),
            (.cryptoTokenKit(-9), .interactionNotAllowed),
            (.missingEntitlement, .missingEntitlement),
            (.localAuthentication(.passcodeNotSet), .passcodeNotSet),
        ]
    )
    func mappingByDomainAndCode(status: KeychainStatus, error: BioAuthError) {
        #expect(StatusMapping.error(for: status) == error)
    }

    @Test("a code is read in its own domain: -2 from LocalAuthentication is a cancel, -2 from CryptoTokenKit is not")
    func codesDependOnTheirDomain() {
        #expect(StatusMapping.error(for: .localAuthentication(.userCancel)) == .userCanceled)
        #expect(StatusMapping.error(for: .cryptoTokenKit(-2)) != .userCanceled)  // TKErrorCodeCommunicationError
        #expect(StatusMapping.error(for: KeychainStatus(rawValue: -2)) != .userCanceled)
        #expect(StatusMapping.error(for: KeychainStatus(domain: .init(rawValue: "SomethingElse"), code: -128)) != .userCanceled)
    }
}
