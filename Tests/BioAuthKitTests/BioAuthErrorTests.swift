import BioAuthKit
import Testing

/// ``BioAuthError`` is a struct over a code, so that new failures do not break an app's `switch`;
/// the idioms docs/BIOAUTHKIT.md shows must keep working.
@Suite("Errors: BioAuthError as an app matches it")
struct BioAuthErrorTests {
    /// The SwiftUI example's `switch`, verbatim in shape.
    private func message(for error: BioAuthError) -> String? {
        switch error {
        case .userCanceled: nil
        case .biometryChanged: "changed"
        case .biometryLockout: "locked"
        default: error.serverCode == .invalidCredentials ? "wrong" : "failed (\(error))"
        }
    }

    @Test("a switch matches the static members; a server refusal matches by its contract code")
    func switchMatchesStaticMembers() {
        #expect(message(for: .userCanceled) == nil)
        #expect(message(for: .biometryChanged) == "changed")
        #expect(message(for: .biometryLockout) == "locked")
        let refusal = BioAuthError.server(ServerRejection(code: .invalidCredentials, status: 401, message: "no"))
        #expect(message(for: refusal) == "wrong")
        #expect(message(for: .transport("offline")) == "failed (transport: offline)")
    }

    @Test("errors with a payload compare by code and payload; the code alone says the kind")
    func payloadsAndCodes() {
        let locked = BioAuthError.server(ServerRejection(code: .locked, status: 429, message: "wait", retryAfterSeconds: 60))
        #expect(locked.code == .server && locked.serverCode == .locked && locked.rejection?.retryAfterSeconds == 60)
        #expect(locked != .server(ServerRejection(code: .locked, status: 429, message: "wait", retryAfterSeconds: 30)))
        #expect(BioAuthError.transport("a").code == BioAuthError.transport("b").code)
        #expect(BioAuthError.transport("a") != .transport("b"))
        #expect(BioAuthError.systemFailure("OSStatus -1").detail == "OSStatus -1")
        #expect(BioAuthError.itemNotFound.serverCode == nil && BioAuthError.itemNotFound.rejection == nil)
        #expect("\(locked)" == "server 429 locked, Retry-After 60 s")
    }

    @Test("a confirmation the device refuses carries the rule's code and the field, and is no server refusal")
    func confirmationRefused() throws {
        let details = ConfirmationDetails.payment(amount: "12.50", currency: "EUR", payeeName: "Alice \u{202E}elpmaxE")
        let problem = try #require(throws: ConfirmationRules.Problem.self) { try ConfirmationRules.check(details, confirmationID: "cnf_1") }
        let error = BioAuthError.confirmationRefused(problem)
        #expect(error.code == .confirmationRefused && error.confirmationProblem == problem && error.serverCode == nil)
        #expect("\(error)" == "confirmationRefused: invalid_confirmation_text payee_name")
    }
}
