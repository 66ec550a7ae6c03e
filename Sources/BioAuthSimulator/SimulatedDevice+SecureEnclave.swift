import BioAuthKit
import Foundation

extension SimulatedDevice: SecureKeyBackend {
    /// `SecKeyCreateRandomKey` in the Secure Enclave: a real P-256 key that never leaves the device.
    public func createRandomKey(_ query: KeychainQuery) -> (status: KeychainStatus, key: (any SecureKeyHandle)?) {
        state.withLock { state in
            let admission = Self.admissionStatus(query, state: state)
            guard admission == .success else { return (admission, nil) }
            guard query.itemClass == .key, query.secureEnclave,
                  query.accessControl?.contains(.privateKeyUsage) == true else { return (.parameterError, nil) }
            let id = ItemID(query)
            let key = P256.Signing.PrivateKey()
            // SecKeyCreateRandomKey with kSecAttrIsPermanent replaces nothing: a second key with
            // the same tag is simply added; BioAuthKit deletes first.
            state.items[id] = SimulatedItem(
                accessibility: (query.accessibility ?? .whenUnlockedThisDeviceOnly).rawValue,
                accessControl: query.accessControl?.rawValue, privateKey: key.rawRepresentation)
            return (.success, SimulatedKeyHandle(id: id, context: query.authenticationContext as? SimulatedContext, prompt: query.operationPrompt))
        }
    }

    /// `SecItemCopyMatching` with `kSecReturnRef`: a reference, no prompt.
    public func copyKey(_ query: KeychainQuery) -> (status: KeychainStatus, key: (any SecureKeyHandle)?) {
        state.withLock { state in
            if state.entitlementMissing { return (.missingEntitlement, nil) }
            let id = ItemID(query)
            guard state.items[id]?.privateKey != nil else { return (.itemNotFound, nil) }
            return (.success, SimulatedKeyHandle(id: id, context: query.authenticationContext as? SimulatedContext, prompt: query.operationPrompt))
        }
    }

    /// `SecItemDelete` for a key.
    public func deleteKey(_ query: KeychainQuery) -> KeychainStatus {
        state.withLock { state in
            if state.entitlementMissing { return .missingEntitlement }
            let id = ItemID(query)
            guard state.items[id]?.privateKey != nil else { return .itemNotFound }
            state.items[id] = nil
            return .success
        }
    }

    /// `SecKeyCopyPublicKey` + `SecKeyCopyExternalRepresentation`: the X9.63 point.
    public func copyPublicKey(_ key: any SecureKeyHandle) -> Data? {
        guard let handle = key as? SimulatedKeyHandle else { return nil }
        return state.withLock { state in
            guard let raw = state.items[handle.id]?.privateKey, let key = try? P256.Signing.PrivateKey(rawRepresentation: raw) else { return nil }
            return key.publicKey.x963Representation
        }
    }

    /// `SecKeyCreateSignature` (`.ecdsaSignatureMessageX962SHA256`): prompts unless the key's
    /// context was authenticated by a real match; a DER signature.
    public func createSignature(_ key: any SecureKeyHandle, message: Data) -> (status: KeychainStatus, signature: Data?) {
        guard let handle = key as? SimulatedKeyHandle else { return (.parameterError, nil) }
        return state.withLock { state in
            guard let item = state.items[handle.id], let raw = item.privateKey else { return (.itemNotFound, nil) }
            let status = Self.authorize(item.accessControl, context: handle.context, interactionNotAllowed: false, prompt: handle.prompt, state: &state)
            guard status == .success else { return (status, nil) }
            guard let privateKey = try? P256.Signing.PrivateKey(rawRepresentation: raw),
                  let signature = try? privateKey.signature(for: message) else { return (.parameterError, nil) }
            return (.success, signature.derRepresentation)
        }
    }
}
