import BioAuthProtocol
import Foundation

/// The contract's rules for usernames, passwords and PINs.
enum CredentialRules {
    /// A username as stored and as compared.
    struct Username: Sendable, Equatable {
        /// NFKC form, shown back to the user.
        var display: String
        /// NFKC of the lower-cased NFKC form: the case-insensitive comparison key.
        var key: String

        /// What look-alikes share (``UsernameSkeleton``): the skeleton of the display form,
        /// lower-cased and skeletonised again, so that case does not hide a look-alike (`Ian` and
        /// `lan`, `b0b` and `BOB`). Two usernames with the same skeleton cannot both exist.
        var skeleton: String {
            UsernameSkeleton.skeleton(UsernameSkeleton.skeleton(display).lowercased())
        }
    }

    /// The answer to a username that breaks the rules of ``username(_:)``.
    static let invalidUsername = Rejection(
        .invalidUsername,
        "A username is 3 to 64 characters, with no control characters and no spaces at either end."
    )

    /// Normalises and checks a username, or returns `nil` when it breaks the rules: 3–64 Unicode
    /// scalars after NFKC, no control or format characters, no white space at either end.
    static func username(_ raw: String) -> Username? {
        let display = raw.precomposedStringWithCompatibilityMapping
        let scalars = display.unicodeScalars
        guard ProtocolLimits.usernameLength.contains(scalars.count) else { return nil }
        guard !scalars.contains(where: { [.control, .format, .lineSeparator, .paragraphSeparator].contains($0.properties.generalCategory) }) else {
            return nil
        }
        guard let first = scalars.first, let last = scalars.last,
            !first.properties.isWhitespace, !last.properties.isWhitespace
        else { return nil }
        let key = display.lowercased().precomposedStringWithCompatibilityMapping
        return Username(display: display, key: key)
    }

    /// Whether a password has an acceptable length (8–256 Unicode scalars).
    static func isAcceptablePassword(_ password: String) -> Bool {
        ProtocolLimits.passwordLength.contains(password.unicodeScalars.count)
    }

    /// The form of a password that is hashed: NFKC, so the same password typed on two keyboards
    /// (composed or decomposed accents, full-width digits) signs in alike.
    static func normalisedPassword(_ password: String) -> String {
        password.precomposedStringWithCompatibilityMapping
    }

    /// Whether a PIN is 4–12 ASCII digits.
    static func isAcceptablePIN(_ pin: String) -> Bool {
        ProtocolLimits.pinLength.contains(pin.utf8.count) && pin.utf8.allSatisfy { (0x30...0x39).contains($0) }
    }

    /// A credential's label (a device key's or a passkey's): at most 64 characters; else
    /// `400 invalid_request`.
    static func label(_ label: String) throws -> String {
        guard ProtocolLimits.labelLength.contains(label.unicodeScalars.count) else {
            throw Rejection(.invalidRequest, "label is at most \(ProtocolLimits.labelLength.upperBound) characters.")
        }
        return label
    }
}
