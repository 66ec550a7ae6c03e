package com.bioauth.kit.client

import com.bioauth.kit.device.DeviceBackends
import com.bioauth.kit.errors.PlatformCodes
import com.bioauth.kit.protocol.Confirmation
import com.bioauth.kit.protocol.Registration
import com.bioauth.kit.protocol.Session
import com.bioauth.kit.protocol.User
import kotlinx.coroutines.sync.Mutex
import kotlinx.coroutines.sync.withLock

/**
 * Result-based biometric sign-in against a BioAuth server. The server trusts only signatures: a
 * biometric session exists only when this device's Keystore key, after a real match, signs the
 * server's fresh challenge. Each call's prompts are in its documentation; cancelling the calling
 * coroutine dismisses a prompt on screen.
 *
 * Every failure is a `BioAuthException` with a code. Calls are `suspend` and safe from the main
 * thread (blocking work, storage writes included, runs on `Dispatchers.IO`). Calls that may show a
 * prompt or change this device's keys run one at a time; the others ([availability],
 * [isBiometricSignInEnabled], [signUp], [signIn], [reauthenticate], [signOut],
 * [signOutEverywhereElse], [accessToken]) never wait for them, so a prompt on screen holds none of them up.
 *
 * The features live in their own classes, as the Swift client's extensions do: passwords and
 * sessions ([PasswordFlows]), biometric sign-in ([BiometricFlows]), the kept session
 * ([KeptSession]), the PIN ([PinFlows]), re-authentication ([StepUp]), reconciliation
 * ([Reconciliation]), access tokens for the app's backend ([AccessTokenFlow]) and confirmations
 * ([ConfirmationFlows]).
 */
public class BioAuthClient(
    /** What the client was configured with. */
    public val configuration: BioAuthConfiguration,
    device: DeviceBackends,
    transport: HttpTransport = UrlConnectionTransport(),
) {
    private val core = ClientCore(configuration, device, transport)
    private val enrolled = EnrolledKey(core)
    private val stepUp = StepUp(core, enrolled)
    private val reconciliation = Reconciliation(core, enrolled)
    private val passwords = PasswordFlows(core, stepUp, reconciliation)
    private val biometrics = BiometricFlows(core, enrolled, stepUp)
    private val keptSession = KeptSession(core)
    private val pins = PinFlows(core, stepUp, reconciliation)
    private val accessTokens = AccessTokenFlow(core)
    private val confirmations = ConfirmationFlows(core, enrolled, pins)
    private val serial = Mutex()

    /** Runs a call that may prompt or change this device's keys after the one before it ended. */
    private suspend fun <T> one(call: suspend () -> T): T = serial.withLock { call() }

    /** The session's bearer token, while signed in, for the app's own API calls. Never stored in the clear. */
    public val sessionToken: String? get() = core.current?.token

    /** The signed-in session. */
    public val session: Session? get() = core.current?.session

    /** The signed-in user. */
    public val user: User? get() = core.current?.user

    // Accounts, passwords, sessions

    /** Creates an account (it does not sign in). Throws `SERVER` with `invalid_username`, `invalid_password`, `username_taken`. */
    public suspend fun signUp(username: String, password: String): User = passwords.signUp(username, password)

    /**
     * Signs in with the password; the session it replaces is ended. If this device's biometric key
     * was found invalidated or gone, its registration is revoked on the server now
     * ([SignedIn.reconciliation]) and biometric sign-in can be enabled again.
     */
    public suspend fun signIn(username: String, password: String): SignedIn = passwords.signIn(username, password)

    /**
     * Changes the password; every other session of the account ends. Needs a recent sign-in:
     * [reauthentication] is used once when the server asks.
     */
    public suspend fun changePassword(current: String, new: String, reauthentication: Reauthentication? = null): Unit =
        one { passwords.changePassword(current, new, reauthentication) }

    /**
     * An access token for the app's own backend (`POST /v1/sessions/current/access-token`), valid
     * for at least the next minute: the cached one while it has a minute left, else a new one.
     * However many callers ask at once, one request is made and they share its answer. Needs only
     * the session the client holds: **no prompt**. The cached token is forgotten on sign-out, on a
     * new sign-in, when the session ends and after a re-authentication (a new token then carries
     * the fresh `auth_time`, for a backend that asks for a recent one). Throws `NOT_SIGNED_IN`; `SERVER` `invalid_session`
     * when the session has ended on the server (the client is then signed out); `TRANSPORT`.
     */
    public suspend fun accessToken(): AccessToken = accessTokens.token()

    /** Ends every other session of the account, on every device. */
    public suspend fun signOutEverywhereElse(): Unit = passwords.signOutEverywhereElse()

    /** Signs out: the server ends the session, and the token kept behind biometrics is forgotten. The device key stays. */
    public suspend fun signOut(): Unit = passwords.signOut()

    // Biometric sign-in

    /** What this device offers, without a prompt: the lock screen, strong biometrics, whether sign-in can be turned on and why not. */
    public suspend fun availability(): BiometricAvailability {
        val authenticators = core.keys.authenticators
        val whyNot = Availability.whyNot(core.device, authenticators)
        return BiometricAvailability(
            apiLevel = core.device.info.apiLevel,
            hasSecureLockScreen = core.device.info.isDeviceSecure(),
            biometrics = Availability.status(core.device.prompt.canAuthenticate(PlatformCodes.AUTHENTICATOR_BIOMETRIC_STRONG)),
            deviceCredentialAllowed = configuration.policy.allowsDeviceCredential(core.device.info.apiLevel),
            canEnableBiometricSignIn = whyNot == null,
            reason = whyNot,
            isBiometricSignInEnabled = biometrics.isEnabled(),
        )
    }

    /**
     * Enables biometric sign-in for the signed-in user: a P-256 Keystore key behind strong
     * biometrics (StrongBox when the device has one), registered with the server and proven by
     * signing the registration challenge. **One prompt** (two when the server asks for a recent
     * sign-in and this device's previous key proves it, the default when there is one). A previous
     * registration of this device is replaced.
     */
    public suspend fun enableBiometricSignIn(label: String? = null, prompt: PromptText, reauthentication: Reauthentication? = null): Registration =
        one { biometrics.enable(label, prompt, reauthentication) }

    /** Whether biometric sign-in is enabled and its key usable, found by beginning a signature (no prompt). A lost key is recorded. */
    public suspend fun isBiometricSignInEnabled(): Boolean = biometrics.isEnabled()

    /**
     * Signs in with biometrics: a fresh challenge, signed by the device key after a match (**one
     * prompt**), exchanged for a session. Throws `KEY_INVALIDATED` after an enrollment change
     * (sign in with the password, which revokes the stale registration), `KEY_MISSING` when not
     * enabled here, `SERVER` `registration_not_found` when the server revoked it (forgotten here).
     */
    public suspend fun signInWithBiometrics(prompt: PromptText): SignedIn = one { biometrics.signIn(prompt) }

    /** Keeps the current session token behind biometrics (AES-GCM Keystore key): **one prompt**. */
    public suspend fun keepSessionBehindBiometrics(prompt: PromptText): Unit = one { keptSession.keep(prompt) }

    /** Restores the session kept behind biometrics after a relaunch: **one prompt**, then the server confirms it is live. */
    public suspend fun restoreSession(prompt: PromptText): SignedIn = one { keptSession.restore(prompt) }

    /** Turns biometric sign-in off: the registration is revoked on the server and the key and the kept session go. Needs a session. */
    public suspend fun disableBiometricSignIn(): Unit = one { biometrics.disable() }

    // The PIN

    /**
     * Sets the account's PIN, bound to a new hardware key of this device that needs no match (the
     * PIN is the user check) and works only while the phone is unlocked (API 28-30 and 35+; not on
     * Android 12-14, where that rule would lose or refuse the key). As on iOS, the
     * PIN is also kept behind biometrics by default, for [signInWithStoredPIN]: **one prompt**
     * ([prompt]), before anything changes; skipped when biometrics cannot be used here. Needs a
     * recent sign-in: [reauthentication] is used once when the server asks.
     *
     * @return whether the PIN is kept behind biometrics.
     */
    public suspend fun setPIN(
        pin: String,
        prompt: PromptText,
        keepBehindBiometrics: Boolean = true,
        reauthentication: Reauthentication? = null,
    ): Boolean = one { pins.set(pin, prompt, keepBehindBiometrics, reauthentication) }

    /** Whether a PIN is set on this device (it may since have moved to another device). */
    public val isPINSet: Boolean get() = pins.isSet

    /** Signs in with a typed PIN: this device's PIN key signs a fresh challenge, then the server checks the PIN. No prompt. */
    public suspend fun signInWithPIN(pin: String): SignedIn = one { pins.signIn(pin) }

    /** Signs in with the PIN kept behind biometrics: **one prompt** releases it. */
    public suspend fun signInWithStoredPIN(prompt: PromptText): SignedIn = one { pins.signInWithStored(prompt) }

    // Confirmations (a payment or an action the bank asks this account to approve)

    /**
     * The account's pending confirmations, oldest first (`GET /v1/confirmations`), each with the
     * text this phone shows for it or why it refuses to ([PendingConfirmation]). No prompt.
     */
    public suspend fun pendingConfirmations(): List<PendingConfirmation> = confirmations.pending()

    /**
     * Approves [pending] with this device's biometric key: the details are checked and their text
     * and hash derived here, a fresh challenge is taken, and after a match (**one prompt** whose
     * title and description are [PendingConfirmation.text], with a tap after a passive match) the
     * key signs the confirmation message over that hash, never a hash or text the server sent.
     * Returns the approved confirmation (its `receipt` is for the bank). Throws
     * `CONFIRMATION_REFUSED` before any prompt or request; `KEY_INVALIDATED`, `KEY_MISSING` as
     * [signInWithBiometrics]; the prompt's errors; `SERVER` with `CONFIRMATION_CLOSED` (decided,
     * expired or blocked meanwhile), `SIGNATURE_INVALID`, `NOT_FOUND`.
     */
    public suspend fun approveConfirmationWithBiometrics(
        pending: PendingConfirmation,
        prompt: ConfirmationPrompt = ConfirmationPrompt(),
    ): Confirmation = one { confirmations.approve(pending, prompt) }

    /**
     * Approves [pending] with this device's PIN key and [pin] (no prompt: the app shows
     * [PendingConfirmation.text] and asks for the PIN itself), where the server allows a PIN to
     * approve (else `SERVER` `CONFIRMATION_FACTOR_NOT_ALLOWED`). A wrong PIN counts against the
     * confirmation and against the PIN's lockout. Throws `CONFIRMATION_REFUSED` before any request.
     */
    public suspend fun approveConfirmationWithPIN(pending: PendingConfirmation, pin: String): Confirmation =
        one { confirmations.approveWithPIN(pending, pin) }

    /** Declines [pending] (no prompt); details this phone refuses to show may be declined too. Throws `SERVER` `CONFIRMATION_CLOSED`. */
    public suspend fun declineConfirmation(pending: PendingConfirmation): Confirmation = confirmations.decline(pending)

    // Re-authentication and reconciliation

    /** Renews the session's proof with the password. */
    public suspend fun reauthenticate(password: String): Unit = stepUp.withPassword(password)

    /** Renews the session's proof with a biometric signature: **one prompt**. */
    public suspend fun reauthenticateWithBiometrics(prompt: PromptText): Unit = one { stepUp.withBiometrics(prompt) }

    /**
     * Brings this device and the server into agreement (needs a session; never prompts): a key
     * found invalidated or gone (by beginning a signature) loses its server registration; a
     * registration the server no longer has loses its local key; a PIN whose key is not here or
     * whose registration moved is forgotten; secrets whose key is gone are dropped. Records
     * restored from a backup without their keys are repaired this way.
     */
    public suspend fun reconcile(): List<ReconciliationAction> = one { reconciliation.reconcile() }
}
