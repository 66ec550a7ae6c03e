/// The security properties the demo checks, each also a named test (see docs/SECURITY.md).
package enum SecurityProperty: String, Codable, Sendable, CaseIterable {
    /// The scenario works: signed in from a signature the server verified, one prompt per use.
    case resultBasedSignIn = "result_based_sign_in"
    /// A hooked `evaluatePolicy` "success" yields no session token and no valid signature.
    case hookedCallbackYieldsNothing = "hooked_callback_yields_nothing"
    /// App storage an attacker can read holds no session token, PIN or password.
    case appStorageHoldsNoSecret = "app_storage_holds_no_secret"
    /// The same hook breaks an event-based app: the hook is real, the defence is the design.
    case eventBasedAppFalls = "event_based_app_falls"
    /// A replayed biometric sign-in request is refused.
    case replayRefused = "replay_refused"
    /// A signature over an expired challenge is refused.
    case expiredChallengeRefused = "expired_challenge_refused"
    /// A stolen copy of the database signs nobody in.
    case stolenDatabaseUseless = "stolen_database_useless"
    /// An enrollment change invalidates the key, is reported as such, and the stale registration is revoked.
    case enrollmentChangeRevokes = "enrollment_change_revokes"
    /// Removing the device passcode deletes the protected items and key.
    case passcodeRemovalDeletesItems = "passcode_removal_deletes_items"
    /// Five wrong PINs lock the PIN factor, with a retry time; even the right PIN is refused meanwhile.
    case pinBruteForceLocked = "pin_brute_force_locked"
    /// A PIN is no credential on its own: sprayed over usernames, or sent with a forged key, it signs nobody in.
    case pinSprayingFails = "pin_spraying_fails"
    /// A stolen bearer token cannot register a key, set a PIN or change the password, and sign-out everywhere ends it.
    case stolenTokenCannotPersist = "stolen_token_cannot_persist"
    /// PIN failures count until a success, however slowly they come: four guesses a quarter hour still lock, for good after three locks.
    case slowPINGuessingLocked = "slow_pin_guessing_locked"
    /// An account recovery revokes every credential, a passkey planted by a thief included.
    case recoveryRevokesPlantedPasskey = "recovery_revokes_planted_passkey"
    /// Under `--key-attestation require`, a key a hooked app made in software, or without a
    /// per-use biometric, is refused; the genuine app's hardware key registers.
    case hookedEnrollmentRefused = "hooked_enrollment_refused"
    /// Attack 14.
    case confirmationBindsWhatWasShown = "confirmation_binds_what_was_shown"
    /// Attack 15.
    case confirmationApprovalNotTransferable = "confirmation_approval_not_transferable"
    /// Attack 16.
    case staleApprovalRefused = "stale_approval_refused"
    /// Attack 17.
    case hookedConfirmationYieldsNothing = "hooked_confirmation_yields_nothing"

    /// The property in one line.
    package var statement: String {
        switch self {
        case .resultBasedSignIn: "Sign-in comes from a signature the server verified; one prompt each time"
        case .hookedCallbackYieldsNothing: "A hooked evaluatePolicy \"success\" yields no token and no signature"
        case .appStorageHoldsNoSecret: "App storage holds no session token, PIN or password"
        case .eventBasedAppFalls: "The same hook breaks an event-based app (the anti-pattern)"
        case .replayRefused: "A replayed sign-in request is refused (challenges are single-use)"
        case .expiredChallengeRefused: "A signature over an expired challenge is refused"
        case .stolenDatabaseUseless: "A stolen copy of the database signs nobody in"
        case .enrollmentChangeRevokes: "Enrollment change → biometryChanged → password → stale registration revoked"
        case .passcodeRemovalDeletesItems: "Removing the passcode deletes the protected items and key"
        case .pinBruteForceLocked: "Five wrong PINs lock the PIN, with a retry time"
        case .pinSprayingFails: "A PIN alone signs nobody in: sprayed over usernames or with a forged key"
        case .stolenTokenCannotPersist: "A stolen token cannot become a lasting credential; sign-out everywhere ends it"
        case .slowPINGuessingLocked: "Slow PIN guessing still locks: failures count until a success"
        case .recoveryRevokesPlantedPasskey: "A recovery revokes every credential, a planted passkey too"
        case .hookedEnrollmentRefused: "Under key attestation, a hooked app's software key is refused; the hardware's key registers"
        case .confirmationBindsWhatWasShown: "A payee swapped on the wire: the phone signs what it showed, and the server refuses it"
        case .confirmationApprovalNotTransferable: "An approval cannot approve another payment, nor be replayed"
        case .staleApprovalRefused: "An approval after expiry, for another account, or with a revoked key is refused"
        case .hookedConfirmationYieldsNothing: "A hooked \"are you sure?\" yields no signature and approves nothing"
        }
    }
}
