import Foundation

/// The words a user is shown for a confirmation, derived from its fields alone, the same way on
/// the server, on every device and on the account page (the test vectors pin them):
///
/// | kind | title | lines |
/// |---|---|---|
/// | payment | `Pay <amount> <currency> to <payee_name>` | `Account: <payee_account>`, `Reference: <reference>` |
/// | action | `<action>` | `Reference: <reference>` |
///
/// A line whose field is absent is left out. A device puts ``title`` and ``lines`` in the
/// platform's own prompt (iOS `localizedReason` gets ``text``; Android's BiometricPrompt the title
/// and the lines as its description).
public struct ConfirmationText: Hashable, Sendable {
    /// The first line: what is approved.
    public var title: String
    /// The further lines, in order.
    public var lines: [String]

    /// The text of `details`; `nil` for a kind this version does not know, or details missing a
    /// field their kind needs (``ConfirmationRules`` refuses both).
    public init?(_ details: ConfirmationDetails) {
        switch details.kind {
        case .payment:
            guard let amount = details.amount, let currency = details.currency, let payee = details.payeeName else { return nil }
            title = "Pay \(amount) \(currency) to \(payee)"
            lines = [details.payeeAccount.map { "Account: \($0)" }, details.reference.map { "Reference: \($0)" }].compactMap { $0 }
        case .action:
            guard let action = details.action else { return nil }
            title = action
            lines = details.reference.map { ["Reference: \($0)"] } ?? []
        default:
            return nil
        }
    }

    /// The title and the lines, one per line.
    public var text: String { ([title] + lines).joined(separator: "\n") }
}
