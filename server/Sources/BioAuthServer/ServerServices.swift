import BioAuthAttestation
import BioAuthWebAuthn
import Logging

/// Every service of one server, built once from its configuration: the composition root. The
/// routes, the purge, `bioauth admin` and the benchmark's probe all take their services from here.
struct ServerServices: Sendable {
    /// The account core every sign-in and credential change completes through.
    let core: AccountCore
    /// Recognising, listing and ending sessions.
    let sessions: SessionService
    /// Sign-up, password changes, the account's page of facts.
    let accounts: AccountService
    /// Password sign-in.
    let passwordSignIn: PasswordSignInService
    /// Device keys: registering, verifying, listing, revoking.
    let registrations: RegistrationService
    /// Device keys' hardware evidence: its challenges, its verdicts.
    let keyAttestations: KeyAttestationService
    /// Biometric challenges and sign-in.
    let biometrics: BiometricService
    /// The PIN: setting it, signing in with it.
    let pins: PINService
    /// Passkeys: registering, listing, renaming, revoking.
    let passkeys: PasskeyService
    /// Passkey sign-in (also the proof behind a passkey re-authentication).
    let passkeySignIn: PasskeySignInService
    /// Step-up with the password, a biometric key or a passkey.
    let reauthentication: ReauthenticationService
    /// The account's activity.
    let audit: AuditLog
    /// The periodic purge of expired rows.
    let housekeeping: Housekeeping
    /// The operator's account actions (`bioauth admin`).
    let administration: AccountAdministration
    /// Access tokens, the key set that verifies them and the fleet's signing keys.
    let accessTokens: AccessTokenService
    /// The bank backends' service credentials, as requests present them.
    let serviceCredentials: ServiceCredentialCheck
    /// Confirmations: created and read by a backend, listed and declined by the account.
    let confirmations: ConfirmationService
    /// Approving a confirmation with a device key.
    let confirmationApprovals: ConfirmationApprovals

    /// Builds every service over `database` with `policies`.
    init(
        configuration: ServerConfiguration,
        database: any DatabaseProvider,
        time: TimeSource,
        policies: ServerPolicies,
        metrics: ServerMetrics,
        logger: Logger
    ) {
        let core = AccountCore(configuration: configuration, database: database, time: time, metrics: metrics)
        let clock = core.clock
        let hasher = PasswordHasher(cost: configuration.passwordHashCost, budget: policies.hashing)
        let check = PasswordCheck(hasher: hasher, core: core)
        // Device keys are remembered after their first use (they never change; each instance keeps its own).
        let assertions = KeyAssertionReader(
            database: database,
            challengeKeys: policies.pinKeys,
            signingKeys: SigningKeyCache(),
            relyingPartyID: configuration.relyingPartyID,
            stepUpNeedsVerifiedKey: configuration.stepUpNeedsVerifiedKey
        )
        let stepUp = StepUp(window: configuration.stepUpWindow, time: time)
        let ttl = configuration.challengeTTL
        let keyAttestations = KeyAttestationService(
            database: database,
            time: time,
            policy: policies.keyAttestation,
            relyingPartyID: configuration.relyingPartyID,
            challengeTTL: ttl
        )
        let registrations = RegistrationService(
            configuration: configuration,
            core: core,
            stepUp: stepUp,
            attestations: keyAttestations
        )
        let passkeySignIn = PasskeySignInService(
            database: database,
            relyingParty: policies.relyingParty,
            core: core,
            challengeTTL: ttl,
            decoyKey: policies.pinKeys.current
        )
        self.core = core
        self.sessions = SessionService(core: core)
        self.accounts = AccountService(database: database, check: check, stepUp: stepUp)
        self.passwordSignIn = PasswordSignInService(database: database, check: check, core: core)
        self.registrations = registrations
        self.keyAttestations = keyAttestations
        self.biometrics = BiometricService(
            database: database,
            core: core,
            assertions: assertions,
            challengeTTL: ttl,
            challengeRate: policies.challengeRate
        )
        let pins = PINService(
            database: database,
            hasher: PINHasher(bcrypt: hasher, keys: policies.pinKeys),
            registrations: registrations,
            core: core,
            stepUp: stepUp,
            assertions: assertions
        )
        self.pins = pins
        self.passkeys = PasskeyService(
            core: core,
            relyingParty: policies.relyingParty,
            stepUp: stepUp,
            challengeTTL: ttl,
            maxPasskeysPerUser: configuration.maxRegistrationsPerUser,
            passkeysAllowed: policies.passkeysAllowed
        )
        self.passkeySignIn = passkeySignIn
        self.reauthentication = ReauthenticationService(
            database: database,
            check: check,
            passkeys: passkeySignIn,
            assertions: assertions
        )
        self.audit = AuditLog(database: database)
        let signingKeys = SigningKeyStore(
            database: database,
            wrap: policies.signingKeyWrap,
            time: time,
            algorithm: configuration.accessTokenAlgorithm,
            rotation: configuration.signingKeyRotation,
            logger: logger
        )
        self.accessTokens = AccessTokenService(
            time: time,
            keys: signingKeys,
            issuer: configuration.accessTokenIssuer,
            audiences: configuration.accessTokenAudienceList,
            lifetime: configuration.accessTokenLifetime,
            passkeysVerifyUser: policies.relyingParty.userVerification == .required
        )
        let confirmations = ConfirmationService(database: database, time: time)
        self.serviceCredentials = ServiceCredentialCheck(database: database)
        self.confirmations = confirmations
        self.confirmationApprovals = ConfirmationApprovals(
            confirmations: confirmations,
            core: core,
            assertions: assertions,
            pins: pins,
            attestations: keyAttestations,
            receipts: ConfirmationReceipts(keys: signingKeys, issuer: configuration.accessTokenIssuer),
            pinAllowed: configuration.confirmationPIN == .allow
        )
        self.housekeeping = Housekeeping(
            configuration: configuration,
            database: database,
            time: time,
            clock: clock,
            signingKeys: signingKeys,
            logger: logger
        )
        self.administration = AccountAdministration(configuration: configuration, core: core)
    }
}
