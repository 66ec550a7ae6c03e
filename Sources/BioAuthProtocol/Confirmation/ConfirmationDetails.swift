import Foundation

#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

/// What a confirmation asks the user to approve, as structured fields: the only input to the
/// text the user is shown (``ConfirmationText``) and to the bytes that are signed
/// (``canonicalJSON(confirmationID:)``), so that the two cannot drift apart.
///
/// A payment has ``amount``, ``currency`` and ``payeeName`` (and may have ``payeeAccount`` and
/// ``reference``); an action has ``action`` (and may have ``reference``). Absent fields are absent,
/// never empty. ``ConfirmationRules`` says what a server accepts and a device displays.
public struct ConfirmationDetails: Codable, Hashable, Sendable {
    /// What is confirmed.
    public var kind: ConfirmationKind
    /// A payment's amount: a decimal string with at most the currency's minor digits (`"12.50"`).
    public var amount: String?
    /// A payment's currency: an ISO 4217 code (`"EUR"`).
    public var currency: String?
    /// Who a payment goes to, as the user knows them.
    public var payeeName: String?
    /// The payee's account (an IBAN or another account number), in ASCII.
    public var payeeAccount: String?
    /// The bank's reference for the payment or action, shown to the user.
    public var reference: String?
    /// An action's description (`"Add Bob Example as a payee"`).
    public var action: String?
    /// The names of members the decoded object had that this version does not know, sorted:
    /// nobody would be shown them, so ``ConfirmationRules`` refuses details that have any. Never
    /// encoded.
    public var unknownFields: [String] = []

    /// Creates details.
    public init(
        kind: ConfirmationKind,
        amount: String? = nil,
        currency: String? = nil,
        payeeName: String? = nil,
        payeeAccount: String? = nil,
        reference: String? = nil,
        action: String? = nil
    ) {
        self.kind = kind
        self.amount = amount
        self.currency = currency
        self.payeeName = payeeName
        self.payeeAccount = payeeAccount
        self.reference = reference
        self.action = action
    }

    /// A payment of `amount` `currency` to `payeeName`.
    public static func payment(
        amount: String,
        currency: String,
        payeeName: String,
        payeeAccount: String? = nil,
        reference: String? = nil
    ) -> ConfirmationDetails {
        ConfirmationDetails(
            kind: .payment,
            amount: amount,
            currency: currency,
            payeeName: payeeName,
            payeeAccount: payeeAccount,
            reference: reference
        )
    }

    /// An action described by `action`.
    public static func action(_ action: String, reference: String? = nil) -> ConfirmationDetails {
        ConfirmationDetails(kind: .action, reference: reference, action: action)
    }

    /// The fields present, by their wire names, with `confirmation_id`.
    func members(confirmationID: String) -> [(String, String)] {
        let fields: [(String, String?)] = [
            ("action", action), ("amount", amount), ("confirmation_id", confirmationID), ("currency", currency),
            ("kind", kind.rawValue), ("payee_account", payeeAccount), ("payee_name", payeeName), ("reference", reference),
        ]
        return fields.compactMap { name, value in value.map { (name, $0) } }
    }

    /// The canonical form that is hashed and signed: a JSON object of the fields present and
    /// `confirmation_id`, all strings, in RFC 8785 (JSON Canonicalization Scheme) form: members
    /// sorted by name, no whitespace, strings escaped as RFC 8785 §3.2.2.2 says, UTF-8.
    public func canonicalJSON(confirmationID: String) -> Data {
        CanonicalJSON.object(members(confirmationID: confirmationID))
    }

    /// SHA-256 of ``canonicalJSON(confirmationID:)``: the `details_hash` a confirmation's signature
    /// covers (``ConfirmationMessage``).
    public func hash(confirmationID: String) -> Data {
        Data(SHA256.hash(data: canonicalJSON(confirmationID: confirmationID)))
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case kind, amount, currency, reference, action
        case payeeName = "payee_name"
        case payeeAccount = "payee_account"
    }

    /// Decodes the known fields, and notes the names of any others (``unknownFields``).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decode(ConfirmationKind.self, forKey: .kind)
        amount = try container.decodeIfPresent(String.self, forKey: .amount)
        currency = try container.decodeIfPresent(String.self, forKey: .currency)
        payeeName = try container.decodeIfPresent(String.self, forKey: .payeeName)
        payeeAccount = try container.decodeIfPresent(String.self, forKey: .payeeAccount)
        reference = try container.decodeIfPresent(String.self, forKey: .reference)
        action = try container.decodeIfPresent(String.self, forKey: .action)
        let known = Set(CodingKeys.allCases.map(\.stringValue))
        unknownFields = try decoder.container(keyedBy: AnyMember.self).allKeys.map(\.stringValue).filter { !known.contains($0) }.sorted()
    }

    /// Any member's name.
    private struct AnyMember: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// What a confirmation is for. A device shows and signs only kinds it knows: an unknown one
/// decodes (so a list from a newer server still reads) but has no text (``ConfirmationText``).
public struct ConfirmationKind: OpenVocabulary {
    /// The text on the wire.
    public let rawValue: String

    /// The value with this text, known to this version or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `payment`: an amount to a payee.
    public static let payment = Self(rawValue: "payment")
    /// `action`: anything else the bank wants approved, described in words.
    public static let action = Self(rawValue: "action")

    /// The values this version knows.
    public static let allCases: [Self] = [.payment, .action]
}
