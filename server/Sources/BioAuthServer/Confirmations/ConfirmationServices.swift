import BioAuthWebAuthn
import Logging

/// Transaction confirmation's services, wired once (``ServerServices``): the bank backends'
/// credentials, the confirmations, their approval by a device key or a passkey, and the webhook.
struct ConfirmationServices: Sendable {
    /// The bank backends' service credentials, as requests present them.
    let serviceCredentials: ServiceCredentialCheck
    /// Confirmations: created and read by a backend, listed and declined by the account.
    let confirmations: ConfirmationService
    /// Approving a confirmation with a device key.
    let approvals: ConfirmationApprovals
    /// Approving a confirmation with a passkey (the account page).
    let passkeyApprovals: PasskeyConfirmations
    /// Posting decided confirmations to service credentials' webhooks, in the background.
    let webhooks: WebhookDelivery

    /// The services over `database`, approving through `core` with the device-key services given,
    /// signing receipts and events with `signingKeys`.
    init(
        configuration: ServerConfiguration,
        database: any DatabaseProvider,
        time: TimeSource,
        relyingParty: RelyingParty,
        core: AccountCore,
        deviceKeys: (assertions: KeyAssertionReader, pins: PINService, attestations: KeyAttestationService),
        signingKeys: SigningKeyStore,
        logger: Logger
    ) {
        let webhooks = WebhookDelivery(logger: logger)
        let events = ConfirmationEvents(
            database: database,
            time: time,
            keys: signingKeys,
            issuer: configuration.accessTokenIssuer,
            delivery: webhooks
        )
        let confirmations = ConfirmationService(database: database, time: time, events: events)
        let approvals = ConfirmationApprovals(
            confirmations: confirmations,
            core: core,
            assertions: deviceKeys.assertions,
            pins: deviceKeys.pins,
            attestations: deviceKeys.attestations,
            receipts: ConfirmationReceipts(keys: signingKeys, issuer: configuration.accessTokenIssuer),
            pinAllowed: configuration.confirmationPIN == .allow
        )
        self.serviceCredentials = ServiceCredentialCheck(database: database)
        self.confirmations = confirmations
        self.approvals = approvals
        self.passkeyApprovals = PasskeyConfirmations(
            confirmations: confirmations,
            approvals: approvals,
            database: database,
            relyingParty: relyingParty,
            core: core,
            challengeTTL: configuration.challengeTTL
        )
        self.webhooks = webhooks
    }
}
