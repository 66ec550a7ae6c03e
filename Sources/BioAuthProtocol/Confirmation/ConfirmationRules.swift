import Foundation

/// What a server accepts as a confirmation's details, and a device agrees to display and sign:
/// the one home of these rules for the server and BioAuthKit (the Android SDK ports them, held to
/// the same answers by the test vectors).
///
/// - The kind is known and has exactly its fields (``ConfirmationDetails``): no member this
///   version does not know (``ConfirmationDetails/unknownFields``).
/// - `amount` is a decimal string above zero, `0` or without leading zeros, at most 15 integer
///   digits, and no more fraction digits than its currency has minor units (none for `JPY`).
/// - `currency` is an active ISO 4217 code (``ISO4217``).
/// - Text shown to the user (``TextRules``) has no control, format (bidi overrides, zero-width),
///   private-use or unassigned characters, no spacing but single U+0020 spaces inside, is in NFKC
///   form (no full-width or mathematical look-alikes), and mixes no Latin, Greek and Cyrillic
///   letters; `payee_account` is printable ASCII letters, digits, spaces and `-./`.
/// - Lengths: `payee_name` 70, `payee_account` 64, `reference` and `action` 140 characters; the
///   canonical details at most ``maxCanonicalBytes``.
public enum ConfirmationRules {
    /// Why details were refused: a stable code and the field.
    public struct Problem: Error, Hashable, Sendable {
        /// `invalid_confirmation`, `invalid_amount`, `invalid_currency`, `invalid_confirmation_text`
        /// or `confirmation_too_large`.
        public var code: ErrorCode
        /// The field's wire name.
        public var field: String
        /// What is wrong, for a person.
        public var reason: String
    }

    /// The most bytes the canonical details may take.
    public static let maxCanonicalBytes = 1024
    /// The most characters (Unicode scalars) each text field may have.
    public static let maxLength: [String: Int] = ["payee_name": 70, "payee_account": 64, "reference": 140, "action": 140]

    /// Checks `details` for a confirmation with id `confirmationID`.
    ///
    /// - Throws: the first ``Problem`` found.
    public static func check(_ details: ConfirmationDetails, confirmationID: String) throws(Problem) {
        try checkShape(details)
        let texts: [(String, String?)] = [
            ("payee_name", details.payeeName), ("payee_account", details.payeeAccount), ("reference", details.reference),
            ("action", details.action),
        ]
        for case let (field, text?) in texts {
            guard text.unicodeScalars.count <= maxLength[field, default: 0] else {
                throw Problem(code: .confirmationTooLarge, field: field, reason: "It is longer than \(maxLength[field, default: 0]) characters.")
            }
            if let reason = field == "payee_account" ? TextRules.accountProblem(text) : TextRules.problem(text) {
                throw Problem(code: .invalidConfirmationText, field: field, reason: reason)
            }
        }
        if details.kind == .payment { try checkAmount(details.amount ?? "", currency: details.currency ?? "") }
        guard details.canonicalJSON(confirmationID: confirmationID).count <= maxCanonicalBytes else {
            throw Problem(code: .confirmationTooLarge, field: "details", reason: "The details take more than \(maxCanonicalBytes) bytes.")
        }
    }

    /// The kind is known and has exactly the fields it needs and allows.
    private static func checkShape(_ details: ConfirmationDetails) throws(Problem) {
        let present: [(String, Bool)] = [
            ("amount", details.amount != nil), ("currency", details.currency != nil), ("payee_name", details.payeeName != nil),
            ("payee_account", details.payeeAccount != nil), ("action", details.action != nil),
        ]
        let (required, allowed): (Set<String>, Set<String>) =
            switch details.kind {
            case .payment: (["amount", "currency", "payee_name"], ["amount", "currency", "payee_name", "payee_account"])
            case .action: (["action"], ["action"])
            default: throw Problem(code: .invalidConfirmation, field: "kind", reason: "The kind is not one of: payment, action.")
            }
        if let unknown = details.unknownFields.first {
            throw Problem(code: .invalidConfirmation, field: unknown, reason: "A confirmation has no \(unknown).")
        }
        for (field, isPresent) in present {
            if isPresent && !allowed.contains(field) {
                throw Problem(code: .invalidConfirmation, field: field, reason: "A \(details.kind) has no \(field).")
            }
            if !isPresent && required.contains(field) {
                throw Problem(code: .invalidConfirmation, field: field, reason: "A \(details.kind) needs \(field).")
            }
        }
    }

    /// The amount is a positive decimal with at most the currency's minor digits.
    private static func checkAmount(_ amount: String, currency: String) throws(Problem) {
        guard let minorDigits = ISO4217.minorDigits[currency] else {
            throw Problem(code: .invalidCurrency, field: "currency", reason: "It is not an active ISO 4217 currency code.")
        }
        let parts = amount.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0]
        let fraction = parts.count > 1 ? parts[1] : nil
        let digits = { (text: Substring) in !text.isEmpty && text.utf8.allSatisfy { (0x30...0x39).contains($0) } }
        guard digits(whole), whole.count <= 15, whole == "0" || !whole.hasPrefix("0"), fraction.map(digits) ?? true else {
            throw Problem(code: .invalidAmount, field: "amount", reason: "It is not a decimal amount such as 12.50.")
        }
        guard (fraction?.count ?? 0) <= minorDigits else {
            throw Problem(code: .invalidAmount, field: "amount", reason: "\(currency) has \(minorDigits) digits after the point.")
        }
        guard amount.utf8.contains(where: { (0x31...0x39).contains($0) }) else {
            throw Problem(code: .invalidAmount, field: "amount", reason: "The amount must be above zero.")
        }
    }
}
