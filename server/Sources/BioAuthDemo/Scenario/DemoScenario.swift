import BioAuthKit
import BioAuthSimulator
import Foundation

/// The demo's scenario on a simulated phone against a real server: Alice signs up, signs in with
/// her password, turns on Face ID sign-in, and signs in with her face on the next launch. Then
/// an attacker tries everything in the threat model.
///
/// Each step and attack is a method returning a ``DemoSection``; run them in order (later ones
/// use the state earlier ones built). ``DemoRunner`` does that; tests call them directly.
package final class DemoScenario {
    /// Where the phone signs in.
    package let target: DemoTarget
    /// Alice's phone: Face ID, a passcode, her face enrolled.
    package let device = SimulatedDevice(biometry: .faceID, passcode: "482916", enrolled: ["owner"])
    /// The network, tapped.
    package let tap = WireTap()
    /// The app on the phone (replaced when the app is relaunched).
    package internal(set) var client: BioAuthClient
    /// Alice's username (unique per run, so a shared server never sees it twice).
    package let username = "alice-\(UUID().uuidString.prefix(6).lowercased())"
    /// Her password (never printed).
    package let password = "correct horse battery"
    /// Her PIN, the fallback factor (never printed).
    package let pin = "246810"
    /// Her current biometric registration.
    package internal(set) var registration: Registration?
    /// Prompts shown by each biometric operation of the walk (enable, sign in, restore).
    var promptsPerOperation: [Int] = []
    var signedInMethods: [AuthenticationMethod] = []

    /// A scenario against `target`.
    package init(target: DemoTarget) {
        self.target = target
        client = Self.makeClient(target: target, device: device, tap: tap)
    }

    static func makeClient(target: DemoTarget, device: SimulatedDevice, tap: WireTap) -> BioAuthClient {
        BioAuthClient(
            configuration: BioAuthConfiguration(
                serverURL: target.baseURL,
                relyingPartyID: target.relyingPartyID,
                keychainService: "com.example.bank"
            ),
            device: device.backends,
            transport: tap
        )
    }

    /// The app is killed and launched again: a new client on the same phone.
    func relaunchApp() {
        client = Self.makeClient(target: target, device: device, tap: tap)
    }

    /// HTTP outside BioAuthKit, through the same tap.
    var http: RawHTTP { RawHTTP(baseURL: target.baseURL, transport: tap) }

    /// A section holding the exchanges recorded since the last one.
    func section(
        _ kind: DemoSection.Kind,
        _ number: Int,
        _ title: String,
        _ explanation: String,
        events: [String] = [],
        properties: [PropertyResult] = []
    ) -> DemoSection {
        DemoSection(kind: kind, number: number, title: title, explanation: explanation, events: events, wire: tap.drain(), properties: properties)
    }

    /// Runs `body`, counting the prompts it showed.
    func countingPrompts<T>(_ body: () async throws -> T) async rethrows -> (T, prompts: Int) {
        let before = device.promptCount
        let value = try await body()
        return (value, device.promptCount - before)
    }
}

extension Optional where Wrapped == BioAuthError {
    /// `succeeded` or the error in short words (`biometryChanged`, `server 401 challenge_invalid`).
    var brief: String { map(\.description) ?? "succeeded" }
}

extension Optional where Wrapped == ReconciliationAction {
    /// What the client cleaned up, in short words.
    var brief: String {
        switch self {
        case .none: "none"
        case .localRegistrationRemoved(let id)?: "local registration \(Redaction.abbreviate(id)) removed (the server no longer had it)"
        case .serverRegistrationRevoked(let id, let reason)?: "registration \(Redaction.abbreviate(id)) revoked on the server (\(reason.rawValue))"
        }
    }
}
