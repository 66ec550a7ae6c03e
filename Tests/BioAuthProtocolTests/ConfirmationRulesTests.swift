import BioAuthProtocol
import Foundation
import Testing

/// The rules a confirmation's details must follow (``ConfirmationRules``), the text derived from
/// them and their canonical form.
@Suite("Confirmation details")
struct ConfirmationRulesTests {
    private static let id = "cnf_0123456789abcdef0123456789abcdef"
    private static let payment = ConfirmationDetails.payment(
        amount: "12.50",
        currency: "EUR",
        payeeName: "Alice Example",
        payeeAccount: "DE89 3704 0044 0532 0130 00",
        reference: "Invoice 42"
    )

    /// The code `details` are refused with, or `nil`.
    private static func code(_ details: ConfirmationDetails) -> String? {
        do {
            try ConfirmationRules.check(details, confirmationID: id)
            return nil
        } catch {
            return error.code.rawValue
        }
    }

    private static func payee(_ name: String) -> ConfirmationDetails {
        .payment(amount: "1.00", currency: "EUR", payeeName: name)
    }

    @Test("the canonical form sorts members, has no whitespace and escapes as RFC 8785 does")
    func canonicalForm() {
        let json = String(decoding: Self.payment.canonicalJSON(confirmationID: Self.id), as: UTF8.self)
        #expect(
            json
                == #"{"amount":"12.50","confirmation_id":"cnf_0123456789abcdef0123456789abcdef","currency":"EUR","kind":"payment","payee_account":"DE89 3704 0044 0532 0130 00","payee_name":"Alice Example","reference":"Invoice 42"}"#
        )
        let escaped = String(decoding: ConfirmationDetails.action("a\"b\\c\u{1}\ndé€😀").canonicalJSON(confirmationID: "x"), as: UTF8.self)
        #expect(escaped == #"{"action":"a\"b\\c\u0001\ndé€😀","confirmation_id":"x","kind":"action"}"#)
    }

    @Test("the text is derived from the fields alone")
    func text() {
        #expect(ConfirmationText(Self.payment)?.text == "Pay 12.50 EUR to Alice Example\nAccount: DE89 3704 0044 0532 0130 00\nReference: Invoice 42")
        #expect(ConfirmationText(.action("Add Bob Example as a payee"))?.text == "Add Bob Example as a payee")
        #expect(ConfirmationText(ConfirmationDetails(kind: ConfirmationKind(rawValue: "loan"), action: "x")) == nil)
    }

    @Test("well-formed details pass")
    func accepted() {
        #expect(Self.code(Self.payment) == nil)
        #expect(Self.code(.payment(amount: "1000", currency: "JPY", payeeName: "株式会社 山田")) == nil)
        #expect(Self.code(.payment(amount: "0.125", currency: "BHD", payeeName: "Łukasz Müller-Øre")) == nil)
        #expect(Self.code(.payment(amount: "5", currency: "RUB", payeeName: "Сергей Иванов")) == nil)
        #expect(Self.code(.action("Add Bob Example as a payee", reference: "R-1")) == nil)
    }

    @Test("amounts that are not positive decimals with the currency's digits are refused")
    func amounts() {
        for amount in ["", "1,00", "1.", ".5", "01.00", "-1", "+1", "1e3", "0", "0.00", "1.234", " 1", "１", "1000000000000000"] {
            #expect(Self.code(.payment(amount: amount, currency: "EUR", payeeName: "A")) == "invalid_amount", "\(amount)")
        }
        #expect(Self.code(.payment(amount: "1.5", currency: "JPY", payeeName: "A")) == "invalid_amount")
        for currency in ["eur", "XXX", "EURO", "", "XAU"] {
            #expect(Self.code(.payment(amount: "1", currency: currency, payeeName: "A")) == "invalid_currency", "\(currency)")
        }
    }

    @Test("controls, direction overrides, invisible and look-alike characters in shown text are refused")
    func misleadingText() {
        let names = [
            "Alice\u{202E}evil", "Alice\u{200B}", "Alice\nBob", "Alice\u{0007}", "Alice\u{00A0}Bob", "Alice  Bob", " Alice", "Alice ",
            "Pаypal", "ＡＬＩＣＥ", "𝐀lice", "ﬁnance", "e\u{301}clair", "Alice\u{E000}", "ɑlice", "",
        ]
        for name in names {
            #expect(Self.code(Self.payee(name)) == "invalid_confirmation_text", "\(name.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        #expect(Self.code(.payment(amount: "1", currency: "EUR", payeeName: "A", payeeAccount: "DE89\u{2024}1")) == "invalid_confirmation_text")
    }

    @Test("kinds, missing and foreign fields, and sizes are refused with their own codes")
    func shapes() {
        #expect(Self.code(ConfirmationDetails(kind: ConfirmationKind(rawValue: "loan"), action: "x")) == "invalid_confirmation")
        #expect(Self.code(ConfirmationDetails(kind: .payment, amount: "1", currency: "EUR")) == "invalid_confirmation")
        #expect(Self.code(ConfirmationDetails(kind: .action, currency: "EUR", action: "x")) == "invalid_confirmation")
        #expect(Self.code(Self.payee(String(repeating: "a", count: 71))) == "confirmation_too_large")
        #expect(Self.code(.action(String(repeating: "a", count: 140))) == nil)
        #expect(Self.code(.action(String(repeating: "𠀀", count: 140), reference: String(repeating: "𠀀", count: 140))) == "confirmation_too_large")
    }
}
