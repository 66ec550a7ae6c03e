@_spi(DeviceSeam) import BioAuthKit
import Foundation

#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

/// Apple's side of App Attest for a ``SimulatedAppAttest``: the attestation object Apple's
/// service returns for a key, and the bytes of a key's assertion. The test supplies it, so the
/// simulator stays free of CBOR and certificates: a fake that merely records its inputs is enough
/// to test the client's decisions; the server package's `AppAttestAuthority` makes objects in
/// Apple's formats.
public protocol AppAttestObjectMaker: Sendable {
    /// What `attestKey` returns for the App Attest key `keyID` (the raw 32 bytes: SHA-256 of
    /// `publicKey`, its X9.63 public point) over `clientDataHash`.
    func attestation(keyID: Data, publicKey: Data, clientDataHash: Data) throws -> Data
    /// What `generateAssertion` returns: the key `keyID` (its private key as X9.63, for a maker
    /// that signs in Apple's format) asserts over `clientDataHash`; `counter` counts the key's
    /// assertions, 1 for its first.
    func assertion(keyID: Data, privateKey: Data, counter: UInt32, clientDataHash: Data) throws -> Data
}

/// A `DCError.Code` the simulated service can answer with (DCError.h).
public enum AppAttestFault: Int, Sendable, CaseIterable {
    /// `unknownSystemFailure` (0).
    case unknownSystemFailure = 0
    /// `featureUnsupported` (1).
    case featureUnsupported = 1
    /// `invalidInput` (2).
    case invalidInput = 2
    /// `invalidKey` (3).
    case invalidKey = 3
    /// `serverUnavailable` (4).
    case serverUnavailable = 4
}

/// A call of `DCAppAttestService`.
public enum AppAttestCall: Sendable, Equatable {
    /// `generateKey()`.
    case generateKey
    /// `attestKey(_:clientDataHash:)`.
    case attestKey
    /// `generateAssertion(_:clientDataHash:)`.
    case generateAssertion
}

/// A simulated `DCAppAttestService` on a ``SimulatedDevice``, following Apple's documentation
/// (https://developer.apple.com/documentation/devicecheck/dcappattestservice): a key id is the
/// standard base64 of SHA-256 of the key's public point; a key attests once (again: `invalidKey`);
/// only an attested key asserts (otherwise `invalidKey`), with a counter that grows; an unknown
/// or rejected key answers `invalidKey`; an unsupported device `featureUnsupported`.
public final class SimulatedAppAttest: @unchecked Sendable {
    struct Key {
        var privateKey: P256.Signing.PrivateKey
        var attested = false
        var counter: UInt32 = 0
        var rejected = false
    }

    struct State {
        var supported = true
        var keys: [String: Key] = [:]
        var faults: [(AppAttestCall, AppAttestFault)] = []
        var calls: [(call: AppAttestCall, keyID: String?, clientDataHash: Data?)] = []
        /// Every `attestKey` call, failed ones included.
        var attestRequests: [(keyID: String, clientDataHash: Data)] = []
    }

    private let maker: any AppAttestObjectMaker
    private let state = Locked(State())

    /// A service whose attestations and assertions `maker` makes.
    public init(maker: any AppAttestObjectMaker) {
        self.maker = maker
    }

    /// Plays a device without App Attest (`isSupported` false; every call `featureUnsupported`).
    public func setSupported(_ supported: Bool) {
        state.withLock { $0.supported = supported }
    }

    /// The next `call` fails with `fault` (queued in order; other calls are unaffected).
    public func failNext(_ call: AppAttestCall, with fault: AppAttestFault) {
        state.withLock { $0.faults.append((call, fault)) }
    }

    /// Apple's service rejects every key made so far: each use answers `invalidKey`.
    public func rejectAllKeys() {
        state.withLock { state in
            for id in state.keys.keys { state.keys[id]?.rejected = true }
        }
    }

    /// The app is deleted and installed again: every App Attest key is gone. Apple
    /// ("Establishing your app's integrity"): App Attest keys do not survive reinstalling the app,
    /// migrating to a new device or restoring from a backup; a key id kept from before then
    /// answers `invalidKey`, as for any key the service does not know.
    func removeAllKeys() {
        state.withLock { $0.keys = [:] }
    }

    /// Every `attestKey` call, failed ones included: the key id and the client data hash, in order.
    public var attestRequests: [(keyID: String, clientDataHash: Data)] {
        state.withLock { $0.attestRequests }
    }

    /// Every key id `generateKey` returned, in order.
    public var generatedKeyIDs: [String] {
        state.withLock { $0.calls.filter { $0.call == .generateKey }.compactMap(\.keyID) }
    }

    /// Each successful `attestKey`: the key id and the client data hash, in order.
    public var attestations: [(keyID: String, clientDataHash: Data)] {
        state.withLock { $0.calls.filter { $0.call == .attestKey }.map { ($0.keyID ?? "", $0.clientDataHash ?? Data()) } }
    }

    /// Each successful `generateAssertion`: the key id and the client data hash, in order.
    public var assertions: [(keyID: String, clientDataHash: Data)] {
        state.withLock { $0.calls.filter { $0.call == .generateAssertion }.map { ($0.keyID ?? "", $0.clientDataHash ?? Data()) } }
    }

    // MARK: the service, as BioAuthKit's seam calls it

    var isSupported: Bool { state.withLock { $0.supported } }

    func generateKey() throws(KeychainStatus) -> String {
        let result = state.withLock { (state: inout State) -> Result<String, KeychainStatus> in
            if let failure = Self.check(.generateKey, state: &state) { return .failure(failure) }
            let key = P256.Signing.PrivateKey()
            let keyID = Data(SHA256.hash(data: key.publicKey.x963Representation)).base64EncodedString()
            state.keys[keyID] = Key(privateKey: key)
            state.calls.append((.generateKey, keyID, nil))
            return .success(keyID)
        }
        return try Self.unwrap(result)
    }

    func attestKey(_ keyID: String, clientDataHash: Data) throws(KeychainStatus) -> Data {
        let result = state.withLock { (state: inout State) -> Result<Key, KeychainStatus> in
            state.attestRequests.append((keyID, clientDataHash))
            if let failure = Self.check(.attestKey, state: &state) { return .failure(failure) }
            guard var key = state.keys[keyID], !key.rejected, !key.attested else { return .failure(.deviceCheck(.invalidKey)) }
            key.attested = true
            state.keys[keyID] = key
            state.calls.append((.attestKey, keyID, clientDataHash))
            return .success(key)
        }
        let key = try Self.unwrap(result)
        do {
            return try maker.attestation(
                keyID: Data(base64Encoded: keyID) ?? Data(),
                publicKey: key.privateKey.publicKey.x963Representation,
                clientDataHash: clientDataHash
            )
        } catch {
            throw .deviceCheck(.unknownSystemFailure)
        }
    }

    func generateAssertion(_ keyID: String, clientDataHash: Data) throws(KeychainStatus) -> Data {
        let result = state.withLock { (state: inout State) -> Result<Key, KeychainStatus> in
            if let failure = Self.check(.generateAssertion, state: &state) { return .failure(failure) }
            guard var key = state.keys[keyID], !key.rejected, key.attested else { return .failure(.deviceCheck(.invalidKey)) }
            key.counter += 1
            state.keys[keyID] = key
            state.calls.append((.generateAssertion, keyID, clientDataHash))
            return .success(key)
        }
        let key = try Self.unwrap(result)
        do {
            return try maker.assertion(
                keyID: Data(base64Encoded: keyID) ?? Data(),
                privateKey: key.privateKey.x963Representation,
                counter: key.counter,
                clientDataHash: clientDataHash
            )
        } catch {
            throw .deviceCheck(.unknownSystemFailure)
        }
    }

    /// `Result.get()` with its typed throw, which the standard library has only from iOS 18.
    private static func unwrap<Value>(_ result: Result<Value, KeychainStatus>) throws(KeychainStatus) -> Value {
        switch result {
        case .success(let value): return value
        case .failure(let failure): throw failure
        }
    }

    /// The failure `call` meets first: no App Attest here, or a queued fault.
    private static func check(_ call: AppAttestCall, state: inout State) -> KeychainStatus? {
        guard state.supported else { return .deviceCheck(.featureUnsupported) }
        guard let index = state.faults.firstIndex(where: { $0.0 == call }) else { return nil }
        return .deviceCheck(DCErrorCode(rawValue: state.faults.remove(at: index).1.rawValue))
    }
}

/// The seam, over the simulated service.
struct SimulatedAppAttestBackend: AppAttestBackend {
    let service: SimulatedAppAttest

    var isSupported: Bool { service.isSupported }
    func generateKey() async throws(KeychainStatus) -> String { try service.generateKey() }
    func attestKey(_ keyID: String, clientDataHash: Data) async throws(KeychainStatus) -> Data {
        try service.attestKey(keyID, clientDataHash: clientDataHash)
    }
    func generateAssertion(_ keyID: String, clientDataHash: Data) async throws(KeychainStatus) -> Data {
        try service.generateAssertion(keyID, clientDataHash: clientDataHash)
    }
}
