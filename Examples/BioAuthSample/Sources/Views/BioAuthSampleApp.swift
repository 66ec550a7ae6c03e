import SwiftUI

/// BioAuth's sample app: password sign-up and sign-in, biometric sign-in turned on from the
/// availability API, a PIN kept behind biometrics, and sign-out, against a local `bioauth serve`.
@main @MainActor
struct BioAuthSampleApp: App {
    @StateObject private var auth = SampleAuth()

    var body: some Scene {
        WindowGroup {
            ContentView(auth: auth)
                .task { await auth.launch() }
        }
    }
}
