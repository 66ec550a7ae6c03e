@_spi(DeviceSeam) import BioAuthKit
import BioAuthSimulator
import Foundation

/// THE ANTI-PATTERN, for contrast only: a "bad app" that keeps its session token in a keychain
/// item with no access control and decides "authenticated" from `evaluatePolicy`'s answer.
/// A hooked `evaluatePolicy` signs anyone in to it; never build an app like this.
struct EventBasedApp {
    let device: SimulatedDevice
    let http: RawHTTP
    private let item = KeychainQuery(itemClass: .genericPassword, service: "com.example.badapp", account: "token")

    /// Signs in with the password and stores the token unprotected.
    func signIn(username: String, password: String) async throws {
        let (_, body) = try await http.call(.signInWithPassword, json: ["username": username, "password": password])
        let token = (try JSONSerialization.jsonObject(with: body) as? [String: Any])?["session_token"] as? String ?? ""
        var add = item
        add.accessibility = .whenUnlockedThisDeviceOnly
        add.data = Data(token.utf8)
        _ = device.backends.keychain.delete(item)
        _ = device.backends.keychain.add(add)
    }

    /// "Unlock with Face ID": if `evaluatePolicy` says yes, read the token. The hook says yes.
    func unlockWithFaceID() async -> String? {
        let context = device.backends.localAuthentication.makeContext()
        guard await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock Bad Bank") == nil else { return nil }
        var query = item
        query.returnData = true
        let (status, data) = device.backends.keychain.copyMatching(query)
        guard status == .success, let data else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
