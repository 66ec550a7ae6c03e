@_spi(DeviceSeam) import BioAuthKit
import Foundation

#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

extension SimulatedDevice {
    /// `SecureEnclave.isAvailable` (CryptoKit).
    @_spi(DeviceSeam) public var isSecureEnclaveAvailable: Bool { state.withLock { $0.hasSecureEnclave } }

    /// `SecKeyCreateRandomKey` in the Secure Enclave: a real P-256 key that never leaves the device.
    @_spi(DeviceSeam) public func createRandomKey(_ query: KeychainQuery) -> (status: KeychainStatus, key: (any SecureKeyHandle)?) {
        state.withLock { state in
            let admission = Self.admissionStatus(query, state: state)
            guard admission == .success else { return (admission, nil) }
            // BioAuthKit asks `isSecureEnclaveAvailable` first and never gets here without one;
            // errSecUnimplemented (-4, SecBase.h) stands in for whatever the platform answers.
            guard state.hasSecureEnclave || !query.secureEnclave else { return (KeychainStatus(rawValue: -4), nil) }
            guard query.itemClass == .key, query.secureEnclave,
                query.accessControl?.contains(.privateKeyUsage) == true
            else { return (.parameterError, nil) }
            let id = ItemID(query)
            let key = P256.Signing.PrivateKey()
            // SecKeyCreateRandomKey with kSecAttrIsPermanent replaces nothing: a second key with
            // the same tag is simply added; BioAuthKit deletes first.
            state.items[id] = SimulatedItem(
                accessibility: (query.accessibility ?? .whenUnlockedThisDeviceOnly).rawValue,
                accessControl: query.accessControl?.rawValue,
                privateKey: key.rawRepresentation
            )
            return (.success, SimulatedKeyHandle(id: id, query: query))
        }
    }

    /// `SecItemCopyMatching` with `kSecReturnRef`: a reference, no prompt (also to an invalidated key).
    @_spi(DeviceSeam) public func copyKey(_ query: KeychainQuery) -> (status: KeychainStatus, key: (any SecureKeyHandle)?) {
        state.withLock { state in
            if state.entitlementMissing { return (.missingEntitlement, nil) }
            let id = ItemID(query)
            guard state.items[id]?.privateKey != nil else { return (.itemNotFound, nil) }
            return (.success, SimulatedKeyHandle(id: id, query: query))
        }
    }

    /// `SecItemDelete` for a key.
    @_spi(DeviceSeam) public func deleteKey(_ query: KeychainQuery) -> KeychainStatus {
        state.withLock { state in
            if state.entitlementMissing { return .missingEntitlement }
            let id = ItemID(query)
            guard state.items[id]?.privateKey != nil else { return .itemNotFound }
            state.items[id] = nil
            return .success
        }
    }

    /// `SecKeyCopyPublicKey` + `SecKeyCopyExternalRepresentation`: the X9.63 point.
    @_spi(DeviceSeam) public func copyPublicKey(_ key: any SecureKeyHandle) -> Data? {
        guard let handle = key as? SimulatedKeyHandle else { return nil }
        return state.withLock { state in
            guard let raw = state.items[handle.id]?.privateKey, let key = try? P256.Signing.PrivateKey(rawRepresentation: raw) else { return nil }
            return key.publicKey.x963Representation
        }
    }

    /// `SecKeyCreateSignature` (`.ecdsaSignatureMessageX962SHA256`): prompts unless the key's
    /// context was authenticated by a real match; a DER signature.
    ///
    /// The Secure Enclave reports the user's answer as the `CFError` of LocalAuthentication, not
    /// as a keychain `OSStatus`: a canceled prompt is `LAErrorDomain` -2 (`LAErrorUserCancel`) —
    /// "If the user click on Cancel the return OSStatus is -2 and not -128 (errSecUserCanceled)"
    /// (Open Radar 28317577, "SecKeyRawSign enclave key", iOS 10) — and so are a failed match
    /// (-1, `LAErrorAuthenticationFailed`), a lockout (-8, `LAErrorBiometryLockout`) and a prompt
    /// that may not be shown (-1004, `LAErrorNotInteractive`); codes from LAError.h of the iOS
    /// 16.5 SDK. A key an enrollment change invalidated answers as the device's
    /// ``EnrollmentChangeBehaviour`` says, its failure untouched.
    @_spi(DeviceSeam) public func createSignature(_ key: any SecureKeyHandle, message: Data) -> (status: KeychainStatus, signature: Data?) {
        guard let handle = key as? SimulatedKeyHandle else { return (.parameterError, nil) }
        let answer: (status: KeychainStatus, signature: Data?) = state.withLock { state in
            guard let item = state.items[handle.id], item.privateKey != nil else { return (.itemNotFound, nil) }
            let (status, invalidated) = Self.checkUse(
                item,
                context: handle.context,
                interactionNotAllowed: handle.interactionNotAllowed,
                prompt: handle.prompt,
                state: &state
            )
            if invalidated || status == Self.promptLeftUp { return (status, nil) }
            guard status == .success else { return (Self.secureEnclaveStatus(status, state: state), nil) }
            return Self.sign(item, message)
        }
        guard answer.status == Self.promptLeftUp else { return answer }
        switch closeWhenInvalidated(handle.context) {
        case .closed(let status):
            return (status, nil)
        case .answeredLate(let late):
            return state.withLock { state in
                guard let item = state.items[handle.id], item.privateKey != nil else { return (.itemNotFound, nil) }
                let status = Self.lateOutcome(late, flags: item.accessControl, state: &state)
                if status == .success, let failure = item.invalidation { return (failure, nil) }
                guard status == .success else { return (Self.secureEnclaveStatus(status, state: state), nil) }
                return Self.sign(item, message)
            }
        }
    }

    /// A DER signature of `message` with `item`'s private key.
    private static func sign(_ item: SimulatedItem, _ message: Data) -> (status: KeychainStatus, signature: Data?) {
        guard let raw = item.privateKey, let privateKey = try? P256.Signing.PrivateKey(rawRepresentation: raw),
            let signature = try? privateKey.signature(for: message)
        else { return (.parameterError, nil) }
        return (.success, signature.derRepresentation)
    }

    /// The LocalAuthentication error the Secure Enclave reports for what the keychain's access
    /// check decided (see ``createSignature(_:message:)``).
    static func secureEnclaveStatus(_ status: KeychainStatus, state: DeviceState) -> KeychainStatus {
        switch status {
        case .userCanceled: .localAuthentication(.userCancel)
        case .authFailed: .localAuthentication(state.isLockedOut ? .biometryLockout : .authenticationFailed)
        case .interactionNotAllowed: .localAuthentication(.notInteractive)
        default: status
        }
    }
}
