import Foundation

/// A confirmation waiting for this user, with what this device makes of its details: the text it
/// shows (``text``), derived here from the fields alone, or why it refuses to show them
/// (``refusal``). The server's `text` and `details_hash` are never used: the prompt shows ``text``
/// and the device key signs the hash this device computes from the same fields, so what is signed
/// is what was shown.
public struct PendingConfirmation: Sendable, Equatable, Identifiable {
    /// The confirmation as the server sent it.
    public let confirmation: Confirmation
    /// The text this device shows for the details (the prompt's reason is its
    /// ``ConfirmationText/text``); `nil` when it refuses them.
    public let text: ConfirmationText?
    /// Why this device refuses to show and sign the details
    /// (``BioAuthError/confirmationRefused(_:)``); `nil` when it shows them.
    public let refusal: BioAuthError?

    /// `cnf_…`
    public var id: String { confirmation.id }

    /// `confirmation`, judged on this device (``shownText(of:)``).
    public init(_ confirmation: Confirmation) {
        self.confirmation = confirmation
        do {
            text = try Self.shownText(of: confirmation)
            refusal = nil
        } catch {
            text = nil
            refusal = error
        }
    }

    /// The text this device shows for `confirmation`, from its `details` and `id` alone: the one
    /// decision of what a device agrees to display and sign.
    ///
    /// - Throws: ``BioAuthError/confirmationRefused(_:)`` when the details break
    ///   ``ConfirmationRules`` (a kind this version does not know among them).
    public static func shownText(of confirmation: Confirmation) throws(BioAuthError) -> ConfirmationText {
        do {
            try ConfirmationRules.check(confirmation.details, confirmationID: confirmation.id)
        } catch {
            throw .confirmationRefused(error)
        }
        guard let text = ConfirmationText(confirmation.details) else {
            // The rules admit only kinds with a text: a rule and the text drifting apart.
            throw .systemFailure("checked confirmation details without a text")
        }
        return text
    }
}
