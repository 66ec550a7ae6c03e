import Foundation

/// A confirmation: something the bank's backend asked an account to approve on the phone (or the
/// account page), and what became of it. The backend reads it with its service credential
/// (`GET /v1/service/confirmations/{id}`), the signed-in app lists the account's
/// (`GET /v1/confirmations`).
public struct Confirmation: Codable, Sendable, Equatable {
    /// `cnf_…`
    public var id: String
    /// The account asked.
    public var userID: String
    /// Where it stands.
    public var status: ConfirmationStatus
    /// What is approved. A device derives the text it shows (``ConfirmationText``) and the hash it
    /// signs from these fields itself.
    public var details: ConfirmationDetails
    /// SHA-256 of the canonical details (``ConfirmationDetails/hash(confirmationID:)``), as the
    /// server computed it when the confirmation was made.
    public var detailsHash: Base64URLBytes
    /// The text the server derived (``ConfirmationText``): for a page that shows what the server says.
    public var text: ConfirmationTextBody
    /// When the backend asked.
    public var createdAt: Date
    /// When it stops being approvable.
    public var expiresAt: Date
    /// When it was approved or declined.
    public var decidedAt: Date?
    /// The factor that approved it: `biometric`, `pin` or `passkey`.
    public var factor: AuthenticationMethod?
    /// The device key that approved it.
    public var registrationID: String?
    /// The passkey that approved it.
    public var passkeyID: String?
    /// For an approved one: the receipt, a compact JWS (`typ` `bioauth-receipt+jwt`) signed with
    /// the access-token signing keys (`GET /.well-known/jwks.json`), holding the details' hash, the
    /// factor, the credential, the time and the device's own signature.
    public var receipt: String?

    /// Creates a confirmation value.
    public init(
        id: String,
        userID: String,
        status: ConfirmationStatus,
        details: ConfirmationDetails,
        detailsHash: Base64URLBytes,
        text: ConfirmationTextBody,
        createdAt: Date,
        expiresAt: Date,
        decidedAt: Date? = nil,
        factor: AuthenticationMethod? = nil,
        registrationID: String? = nil,
        passkeyID: String? = nil,
        receipt: String? = nil
    ) {
        self.id = id
        self.userID = userID
        self.status = status
        self.details = details
        self.detailsHash = detailsHash
        self.text = text
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.decidedAt = decidedAt
        self.factor = factor
        self.registrationID = registrationID
        self.passkeyID = passkeyID
        self.receipt = receipt
    }

    enum CodingKeys: String, CodingKey {
        case id, status, details, text, factor, receipt
        case userID = "user_id"
        case detailsHash = "details_hash"
        case createdAt = "created_at"
        case expiresAt = "expires_at"
        case decidedAt = "decided_at"
        case registrationID = "registration_id"
        case passkeyID = "passkey_id"
    }
}

/// ``ConfirmationText`` on the wire: `{"title": …, "lines": […]}`.
public struct ConfirmationTextBody: Codable, Sendable, Equatable {
    /// The first line.
    public var title: String
    /// The further lines.
    public var lines: [String]

    /// Creates the body.
    public init(title: String, lines: [String]) {
        self.title = title
        self.lines = lines
    }

    /// The body of `text`.
    public init(_ text: ConfirmationText) {
        self.init(title: text.title, lines: text.lines)
    }
}

/// Where a confirmation stands.
public struct ConfirmationStatus: OpenVocabulary {
    /// The text on the wire.
    public let rawValue: String

    /// The value with this text, known to this version or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `pending`: waiting for the user.
    public static let pending = Self(rawValue: "pending")
    /// `approved`: signed by a credential of the account; it has a receipt.
    public static let approved = Self(rawValue: "approved")
    /// `declined`: the user said no.
    public static let declined = Self(rawValue: "declined")
    /// `expired`: nobody approved it in time.
    public static let expired = Self(rawValue: "expired")
    /// `blocked`: five approvals in a row failed (a signature or PIN that did not hold).
    public static let blocked = Self(rawValue: "blocked")

    /// The values this version knows.
    public static let allCases: [Self] = [.pending, .approved, .declined, .expired, .blocked]
}

/// The body of `POST /v1/service/confirmations`.
public struct CreateConfirmationRequest: Codable, Sendable, Equatable {
    /// The account to ask (its `sub` in access tokens).
    public var userID: String
    /// What to approve.
    public var details: ConfirmationDetails
    /// Seconds until it expires: 30…3600, 300 if absent.
    public var expiresInSeconds: Int?

    /// Creates the body.
    public init(userID: String, details: ConfirmationDetails, expiresInSeconds: Int? = nil) {
        self.userID = userID
        self.details = details
        self.expiresInSeconds = expiresInSeconds
    }

    enum CodingKeys: String, CodingKey {
        case details
        case userID = "user_id"
        case expiresInSeconds = "expires_in_seconds"
    }
}

/// `200` of `GET /v1/confirmations`: the account's pending confirmations, oldest first, then its
/// latest decided or expired ones, newest first.
public struct ConfirmationList: Codable, Sendable, Equatable {
    /// The confirmations.
    public var confirmations: [Confirmation]

    /// Creates the body.
    public init(confirmations: [Confirmation]) { self.confirmations = confirmations }
}

/// The body of `POST /v1/confirmations/{id}/approve`: a device key's signature over the
/// confirmation's message (``ConfirmationMessage``) with a fresh authentication challenge
/// (`POST /v1/biometric/challenges`), and with a PIN key its PIN.
public struct ApproveConfirmationRequest: Codable, Sendable, Equatable {
    /// The challenge's id.
    public var challengeID: String
    /// The signature over ``ConfirmationMessage``.
    public var signature: Base64URLBytes
    /// The PIN, with a PIN key's signature.
    public var pin: String?
    /// On a server that requires hardware evidence, for a key registered with App Attest
    /// evidence: an assertion by that App Attest key whose `clientDataHash` is SHA-256 of the same
    /// ``ConfirmationMessage`` bytes.
    public var appAttestAssertion: Base64URLBytes?

    /// Creates the body.
    public init(challengeID: String, signature: Base64URLBytes, pin: String? = nil, appAttestAssertion: Base64URLBytes? = nil) {
        self.challengeID = challengeID
        self.signature = signature
        self.pin = pin
        self.appAttestAssertion = appAttestAssertion
    }

    enum CodingKeys: String, CodingKey {
        case signature, pin
        case challengeID = "challenge_id"
        case appAttestAssertion = "app_attest_assertion"
    }
}
