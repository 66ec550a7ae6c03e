import BioAuthKit
import SwiftUI

/// The account's pending confirmations: the text BioAuthKit derived from each one's details (the
/// same words the biometric prompt shows), Approve and Decline; one it refuses to show can only be
/// declined.
@MainActor
struct ConfirmationsSection: View {
    @ObservedObject var auth: SampleAuth
    @State private var pin = ""

    var body: some View {
        Section("Confirmations") {
            Button("Check for confirmations") { Task { await auth.loadConfirmations() } }
            if auth.pinSet && !auth.confirmations.isEmpty {
                SecureField("PIN, to approve with the PIN", text: $pin).keyboardType(.numberPad)
            }
            ForEach(auth.confirmations) { pending in
                VStack(alignment: .leading, spacing: 6) {
                    if let text = pending.text {
                        Text(text.title).bold()
                        ForEach(text.lines, id: \.self) { Text($0).font(.footnote) }
                        HStack {
                            Button("Approve with \(auth.biometryName)") { Task { await auth.approve(pending) } }
                            if auth.pinSet { Button("Approve with PIN") { Task { await auth.approve(pending, pin: pin) } } }
                            Button("Decline", role: .destructive) { Task { await auth.decline(pending) } }
                        }
                        .buttonStyle(.borderless)
                    } else {
                        Text("This request cannot be shown safely on this phone.").foregroundColor(.red)
                        Button("Decline", role: .destructive) { Task { await auth.decline(pending) } }.buttonStyle(.borderless)
                    }
                }
            }
        }
    }
}
