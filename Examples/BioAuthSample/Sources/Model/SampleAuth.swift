import BioAuthKit
import Combine
import Foundation

/// The app's whole use of BioAuthKit: one client, and what the screens show.
@MainActor
final class SampleAuth: ObservableObject {
    /// The server: a `bioauth serve` on this Mac (the Simulator reaches it as localhost; a phone
    /// needs the Mac's address, and the server's `--relying-party` to match).
    static let serverURL = URL(string: "http://localhost:8080")!

    /// The Secure Enclave's P-256 key; in the Xcode Simulator, which has no Secure Enclave, a debug
    /// build uses a software Ed25519 key behind Face ID instead (the server lists it as `ed25519`).
    static let algorithm: SignatureAlgorithm = {
        #if DEBUG && targetEnvironment(simulator)
        .ed25519
        #else
        .es256
        #endif
    }()

    let client = BioAuthClient(
        configuration: BioAuthConfiguration(serverURL: SampleAuth.serverURL, relyingPartyID: "localhost", algorithm: SampleAuth.algorithm),
        device: .apple
    )

    /// The bank's own API, called with BioAuth's access tokens.
    lazy var bank = BankAPI(client: client)

    @Published private(set) var user: User?
    @Published private(set) var availability: BiometricAvailability?
    @Published private(set) var biometricSignInEnabled = false
    @Published private(set) var pinSet = false
    /// The account's pending confirmations, each with the text this device derived for it.
    @Published var confirmations: [PendingConfirmation] = []
    @Published var message: String?

    /// The biometry's name for labels: "Face ID", "Touch ID", "Optic ID".
    var biometryName: String {
        switch availability?.biometry {
        case .faceID?: "Face ID"
        case .touchID?: "Touch ID"
        case .opticID?: "Optic ID"
        default: "Biometrics"
        }
    }

    /// Why biometric sign-in cannot be turned on, as a hint under the switch.
    var availabilityHint: String? {
        switch availability?.obstacle {
        case nil: nil
        case .notEnrolled?: "Set up \(biometryName) in Settings to use it here."
        case .lockedOut?: "\(biometryName) is locked. Unlock your phone with its passcode first."
        case .noPasscode?: "Set a device passcode in Settings to use \(biometryName)."
        case .noSecureEnclave?: "This device has no Secure Enclave (the Simulator cannot hold the key)."
        case .missingEntitlement?: "The app's keychain entitlement is missing (a build problem)."
        default: "This device cannot use biometric sign-in."
        }
    }

    /// On launch: what the device offers, and whether biometric sign-in is on (no prompt). The
    /// app does not sign in by itself; the user taps the button.
    func launch() async {
        await refresh()
    }

    func signUp(_ username: String, _ password: String) async {
        await run {
            try await client.signUp(username: username, password: password)
            user = try await client.signIn(username: username, password: password).user
            return nil
        }
    }

    func signIn(_ username: String, _ password: String) async {
        await run {
            let signedIn = try await client.signIn(username: username, password: password)
            user = signedIn.user
            // A password sign-in also revokes a registration whose key an enrollment change
            // destroyed: say why the switch is off again.
            if case .serverRegistrationRevoked(_, .biometryChanged)? = signedIn.reconciliation {
                return "\(biometryName) changed on this device, so its sign-in was turned off. Turn it on again below."
            }
            return nil
        }
    }

    func signInWithBiometrics() async {
        await run {
            user = try await client.signInWithBiometrics(prompt: "Sign in to BioAuth Sample").user
            return nil
        }
    }

    func setBiometricSignIn(_ on: Bool) async {
        await run {
            if on {
                try await client.enableBiometricSignIn(label: "BioAuth Sample", prompt: "Turn on \(biometryName) sign-in")
            } else {
                try await client.disableBiometricSignIn()
            }
            return nil
        }
    }

    func setPIN(_ pin: String) async {
        // Kept behind biometrics (the default): the next sign-in can use the PIN after one match.
        await run {
            try await client.setPIN(pin)
            return "PIN set."
        }
    }

    /// The PIN kept behind biometrics: one match releases it, and it signs in like a typed one.
    func signInWithStoredPIN() async {
        await run {
            user = try await client.signInWithStoredPIN(prompt: "Sign in to BioAuth Sample with your PIN").user
            return nil
        }
    }

    func signInWithPIN(_ pin: String) async {
        await run {
            user = try await client.signInWithPIN(pin).user
            return nil
        }
    }

    /// Loads the balance from the bank's API with an access token (no prompt).
    func loadBalance() async {
        await run {
            let balance = try await bank.balance()
            return "Balance: \(balance.amount) \(balance.currency)"
        }
    }

    /// Sends a transfer; when the bank asks for a recent strong authentication, one biometric
    /// re-authentication renews it (the client then fetches a token that says so) and it is sent again.
    func transfer() async {
        await run {
            do {
                try await bank.transfer()
            } catch BankAPI.Refusal.stepUpNeeded {
                guard biometricSignInEnabled else { return "The bank asks you to sign in again with your password first." }
                try await client.reauthenticateWithBiometrics(prompt: "Confirm the transfer")
                try await bank.transfer()
            }
            return "Transfer accepted."
        }
    }

    func signOut() async {
        await run {
            try await client.signOut()
            user = nil
            return nil
        }
    }

    /// Runs an action and shows what it has to say, or its failure in words.
    func run(_ action: () async throws -> String?) async {
        do {
            message = try await action()
        } catch let error as BioAuthError {
            message = text(for: error)
        } catch {
            message = error.localizedDescription
        }
        await refresh()
    }

    private func refresh() async {
        availability = await client.biometricAvailability()
        biometricSignInEnabled = await client.isBiometricSignInEnabled()
        pinSet = await client.isPINSet
        if user == nil { user = await client.user }
    }

    /// What the app shows for each failure (docs/BIOAUTHKIT.md's error table).
    private func text(for error: BioAuthError) -> String? {
        switch error {
        case .userCanceled: nil
        case .biometryChanged: "\(biometryName) changed on this device. Sign in with your password, then turn it on again."
        case .biometryLockout: "\(biometryName) is locked. Use your PIN or password."
        case .itemNotFound: "\(biometryName) sign-in is not on for this device. Sign in with your password."
        case .secureEnclaveUnavailable: "This device cannot hold a \(biometryName) key."
        case _ where error.code == .confirmationRefused: "This request cannot be shown safely on this phone. Decline it."
        case _ where error.serverCode == .confirmationClosed: "This request was already approved, declined or blocked, or it expired."
        case _ where error.serverCode == .confirmationFactorNotAllowed: "This bank does not take the PIN for payments. Use \(biometryName)."
        default: error.serverCode == .invalidCredentials ? "Wrong username or password." : "That did not work (\(error))."
        }
    }
}
