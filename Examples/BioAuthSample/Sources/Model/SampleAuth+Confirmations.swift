import BioAuthKit
import Foundation

/// Payments and other actions the bank asks the user to confirm on this phone.
extension SampleAuth {
    /// Loads the pending confirmations (no prompt).
    func loadConfirmations() async {
        await run {
            confirmations = try await client.pendingConfirmations()
            return confirmations.isEmpty ? "Nothing to confirm." : nil
        }
    }

    /// Approves with biometrics: the prompt shows the text BioAuthKit derived from the details.
    func approve(_ pending: PendingConfirmation) async {
        await run {
            try await client.approveConfirmationWithBiometrics(pending)
            confirmations = try await client.pendingConfirmations()
            return "Approved: \(pending.text?.title ?? pending.id)."
        }
    }

    /// Approves with the PIN the user typed under the text shown on screen.
    func approve(_ pending: PendingConfirmation, pin: String) async {
        await run {
            try await client.approveConfirmationWithPIN(pending, pin: pin)
            confirmations = try await client.pendingConfirmations()
            return "Approved with the PIN: \(pending.text?.title ?? pending.id)."
        }
    }

    /// Declines: the bank learns the user said no.
    func decline(_ pending: PendingConfirmation) async {
        await run {
            try await client.declineConfirmation(pending)
            confirmations = try await client.pendingConfirmations()
            return "Declined."
        }
    }
}
