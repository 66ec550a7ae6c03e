import SwiftUI

/// One screen: signed out (password, PIN, biometric sign-in), or signed in (settings, payments to
/// confirm, the bank's API, sign-out).
@MainActor
struct ContentView: View {
    @ObservedObject var auth: SampleAuth
    @State private var username = ""
    @State private var password = ""
    @State private var pin = ""

    var body: some View {
        NavigationView {
            Form {
                if let user = auth.user {
                    signedIn(user.username)
                } else {
                    signedOut
                }
                if let message = auth.message {
                    Section { Text(message) }
                }
            }
            .navigationTitle("BioAuth Sample")
        }
    }

    @ViewBuilder private var signedOut: some View {
        Section("Password") {
            TextField("Username", text: $username).textInputAutocapitalization(.never).disableAutocorrection(true)
            SecureField("Password", text: $password)
            Button("Sign in") { Task { await auth.signIn(username, password) } }
            Button("Create account") { Task { await auth.signUp(username, password) } }
        }
        if auth.biometricSignInEnabled {
            Section(auth.biometryName) {
                Button("Sign in with \(auth.biometryName)") { Task { await auth.signInWithBiometrics() } }
            }
        }
        if auth.pinSet {
            Section("PIN") {
                SecureField("PIN", text: $pin).keyboardType(.numberPad)
                Button("Sign in with PIN") { Task { await auth.signInWithPIN(pin) } }
                Button("Sign in with the PIN kept by \(auth.biometryName)") { Task { await auth.signInWithStoredPIN() } }
            }
        }
    }

    @ViewBuilder private func signedIn(_ username: String) -> some View {
        Section("Signed in as \(username)") {
            Toggle(
                "Sign in with \(auth.biometryName)",
                isOn: Binding(
                    get: { auth.biometricSignInEnabled },
                    set: { on in Task { await auth.setBiometricSignIn(on) } }
                )
            )
            .disabled(!(auth.availability?.canEnable ?? false) && !auth.biometricSignInEnabled)
            if let hint = auth.availabilityHint { Text(hint).font(.footnote).foregroundColor(.secondary) }
        }
        Section("PIN") {
            SecureField("New PIN (4 to 12 digits)", text: $pin).keyboardType(.numberPad)
            Button("Set PIN") { Task { await auth.setPIN(pin) } }
        }
        ConfirmationsSection(auth: auth)
        Section("The bank's API") {
            Button("Load balance from the bank's API") { Task { await auth.loadBalance() } }
            Button("Transfer 10 EUR") { Task { await auth.transfer() } }
        }
        Section {
            Button("Sign out", role: .destructive) { Task { await auth.signOut() } }
        }
    }
}
