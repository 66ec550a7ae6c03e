package com.bioauth.kit.client

import com.bioauth.kit.device.DeviceBackends
import com.bioauth.kit.device.PromptText
import com.bioauth.kit.errors.BioAuthException
import com.bioauth.kit.errors.BioAuthException.Code
import com.bioauth.kit.internal.Io
import com.bioauth.kit.protocol.Base64Url
import com.bioauth.kit.protocol.Ceremony
import com.bioauth.kit.protocol.ChallengeToSign
import com.bioauth.kit.protocol.Endpoint
import com.bioauth.kit.protocol.Registration
import com.bioauth.kit.protocol.Session
import com.bioauth.kit.protocol.SignInResponse
import com.bioauth.kit.protocol.SignedMessage
import com.bioauth.kit.protocol.User
import org.json.JSONObject
import java.util.UUID

/**
 * Result-based biometric sign-in against a BioAuth server. The server trusts only signatures: a
 * biometric session exists only when this device's Keystore key, after a real match, signs the
 * server's fresh challenge. Each call's prompts are in its documentation.
 *
 * Calls are `suspend` and may be made from any thread (blocking work runs off it). One client per
 * app process; calls are not meant to overlap.
 */
class BioAuthClient(
    val configuration: BioAuthConfiguration,
    private val device: DeviceBackends,
    transport: HttpTransport = UrlConnectionTransport(),
) {
    private val io = Io()
    private val api = ApiClient(configuration.serverUrl, transport, io)
    private val keys = DeviceKeys(device, io)
    private val vault = SecretVault(keys, device.storage, "${configuration.namespace}.vault-key")
    private val enrollmentName = "${configuration.namespace}.enrollment"
    private val pinName = "${configuration.namespace}.pin"
    private val sessionSecret = "${configuration.namespace}.session"
    private val pinSecret = "${configuration.namespace}.pin-secret"

    @Volatile private var current: Triple<String, Session, User>? = null

    /** The session's bearer token, while signed in. Never stored in the clear. */
    val sessionToken: String? get() = current?.first

    /** The signed-in session. */
    val session: Session? get() = current?.second

    /** The signed-in user. */
    val user: User? get() = current?.third

    // Accounts and passwords

    /** Creates an account (it does not sign in). */
    suspend fun signUp(username: String, password: String): User {
        val body = api.call(Endpoint.CREATE_USER, body = JSONObject().put("username", username).put("password", password))
        return api.read(Endpoint.CREATE_USER, body) { User.from(it.getJSONObject("user")) }
    }

    /**
     * Signs in with the password. If this device's biometric key was found invalidated (an
     * enrollment change), its registration is revoked on the server now and the key deleted: the
     * app may offer to enable biometric sign-in again.
     */
    suspend fun signIn(username: String, password: String): SignedIn {
        val body = JSONObject().put("username", username).put("password", password)
        configuration.sessionDurationMinutes?.let { body.put("session_duration_minutes", it) }
        val signedIn = adopt(Endpoint.SIGN_IN_WITH_PASSWORD, api.call(Endpoint.SIGN_IN_WITH_PASSWORD, body = body))
        return signedIn.copy(reconciliation = revokeLostRegistration())
    }

    // Biometric sign-in

    /**
     * Enables biometric sign-in for the signed-in user: a P-256 key in the Keystore behind strong
     * biometrics (StrongBox when present), registered with the server and proven by signing the
     * registration challenge. **One prompt.** A previous registration of this device is replaced.
     * Registering needs a recent sign-in: when the server asks, [reauthentication] is used once.
     */
    suspend fun enableBiometricSignIn(label: String? = null, prompt: PromptText, reauthentication: Reauthentication? = null): Registration {
        val user = user ?: throw BioAuthException(Code.NOT_SIGNED_IN)
        val previous = enrollment()
        val alias = "${configuration.namespace}.device-key.${UUID.randomUUID()}"
        val publicKey = keys.createBiometricKey(alias)
        var registrationId: String? = null
        try {
            val start = withStepUp(reauthentication) {
                val body = JSONObject().put("algorithm", "ES256").put("public_key", Base64Url.encode(publicKey))
                label?.let { body.put("label", it) }
                api.call(Endpoint.START_REGISTRATION, body = body, token = requireToken())
            }
            val challenge = api.read(Endpoint.START_REGISTRATION, start) { ChallengeToSign.registration(it) }
            registrationId = challenge.id
            val message = SignedMessage(Ceremony.REGISTRATION, configuration.relyingPartyId, challenge.id, challenge.challenge).encoded()
            val signature = keys.signWithBiometrics(alias, message, prompt)
            val verified = api.call(Endpoint.VERIFY_REGISTRATION, challenge.id, JSONObject().put("signature", Base64Url.encode(signature)), requireToken())
            val registration = api.read(Endpoint.VERIFY_REGISTRATION, verified) { Registration.from(it.getJSONObject("registration")) }
            device.storage.write(enrollmentName, EnrollmentRecord(user.id, registration.id, alias).json())
            if (previous != null) {
                runCatching { api.call(Endpoint.DELETE_REGISTRATION, previous.registrationId, token = requireToken()) }
                keys.delete(previous.keyAlias)
            }
            return registration
        } catch (error: Throwable) {
            // No orphan on either side; the previous registration is untouched.
            keys.delete(alias)
            registrationId?.let { id -> runCatching { api.call(Endpoint.DELETE_REGISTRATION, id, token = sessionToken) } }
            throw error
        }
    }

    /** Whether biometric sign-in is enabled and its key is here; never prompts. */
    suspend fun isBiometricSignInEnabled(): Boolean {
        val record = enrollment() ?: return false
        return record.lost == null && keys.contains(record.keyAlias)
    }

    /**
     * Signs in with biometrics: a fresh challenge from the server, signed by the device key after a
     * match (**one prompt**), exchanged for a session. The signature comes only from the crypto
     * object the prompt's success hands back.
     *
     * Throws [Code.KEY_INVALIDATED] when an enrollment change invalidated the key: sign in with
     * the password, which revokes the stale registration. [Code.KEY_MISSING] when biometric sign-in
     * is not enabled here.
     */
    suspend fun signInWithBiometrics(prompt: PromptText): SignedIn {
        val record = usableEnrollment()
        val challenge = authenticationChallenge(record.registrationId)
        val signature = signOrRecordLoss(record, SignedMessage(Ceremony.AUTHENTICATION, configuration.relyingPartyId, record.registrationId, challenge.challenge).encoded(), prompt)
        val body = JSONObject().put("challenge_id", challenge.id).put("signature", Base64Url.encode(signature))
        configuration.sessionDurationMinutes?.let { body.put("session_duration_minutes", it) }
        return adopt(Endpoint.SIGN_IN_WITH_BIOMETRIC, api.call(Endpoint.SIGN_IN_WITH_BIOMETRIC, body = body))
    }

    /** Keeps the current session token behind biometrics (AES-GCM Keystore key, seed 004): **one prompt**. */
    suspend fun keepSessionBehindBiometrics(prompt: PromptText) {
        vault.store(sessionSecret, requireToken().toByteArray(Charsets.UTF_8), prompt)
    }

    /** Restores the session kept behind biometrics after a relaunch: **one prompt**, then the server confirms it is live. */
    suspend fun restoreSession(prompt: PromptText): SignedIn {
        val token = try {
            String(vault.read(sessionSecret, prompt), Charsets.UTF_8)
        } catch (error: BioAuthException) {
            if (error.code == Code.KEY_INVALIDATED) vault.remove(sessionSecret)
            throw error
        }
        val body = try {
            api.call(Endpoint.GET_CURRENT_SESSION, token = token)
        } catch (error: BioAuthException) {
            if (error.serverCode == "invalid_session") vault.remove(sessionSecret)
            throw error
        }
        val session = api.read(Endpoint.GET_CURRENT_SESSION, body) { Session.from(it.getJSONObject("session")) to User.from(it.getJSONObject("user")) }
        current = Triple(token, session.first, session.second)
        return SignedIn(session.second, session.first)
    }

    /** Turns biometric sign-in off: the registration is revoked on the server (when signed in) and every local key and secret goes. */
    suspend fun disableBiometricSignIn() {
        val record = enrollment()
        if (record != null && sessionToken != null) {
            runCatching { api.call(Endpoint.DELETE_REGISTRATION, record.registrationId, token = sessionToken) }
        }
        record?.let { keys.delete(it.keyAlias) }
        device.storage.write(enrollmentName, null)
        vault.remove(sessionSecret)
    }

    // The PIN: knowledge (the PIN) and possession (this device's PIN key)

    /**
     * Sets the account's PIN, bound to a new hardware key of this device (the PIN's user check is
     * the PIN itself: no prompt for the key). With [keepBehindBiometrics], the PIN is also kept in
     * the biometric vault for [signInWithStoredPIN] (**one prompt**). Needs a recent sign-in.
     */
    suspend fun setPIN(pin: String, keepBehindBiometrics: PromptText? = null, reauthentication: Reauthentication? = null) {
        val user = user ?: throw BioAuthException(Code.NOT_SIGNED_IN)
        val alias = "${configuration.namespace}.pin-key.${UUID.randomUUID()}"
        val publicKey = keys.createPINKey(alias)
        try {
            val start = withStepUp(reauthentication) {
                api.call(Endpoint.SET_PIN, body = JSONObject().put("pin", pin).put("algorithm", "ES256").put("public_key", Base64Url.encode(publicKey)),
                         token = requireToken())
            }
            val challenge = api.read(Endpoint.SET_PIN, start) { ChallengeToSign.registration(it) }
            val message = SignedMessage(Ceremony.REGISTRATION, configuration.relyingPartyId, challenge.id, challenge.challenge).encoded()
            val signature = keys.signWithPINKey(alias, message)
            api.call(Endpoint.VERIFY_REGISTRATION, challenge.id, JSONObject().put("signature", Base64Url.encode(signature)), requireToken())
            EnrollmentRecord.read(device.storage, pinName)?.let { keys.delete(it.keyAlias) }
            device.storage.write(pinName, EnrollmentRecord(user.id, challenge.id, alias).json())
        } catch (error: Throwable) {
            keys.delete(alias)
            throw error
        }
        if (keepBehindBiometrics != null) vault.store(pinSecret, pin.toByteArray(Charsets.UTF_8), keepBehindBiometrics) else vault.remove(pinSecret)
    }

    /** Whether a PIN is set on this device. */
    val isPINSet: Boolean get() = EnrollmentRecord.read(device.storage, pinName) != null

    /** Signs in with the PIN: this device's PIN key signs a fresh challenge, the server checks the PIN. No prompt. */
    suspend fun signInWithPIN(pin: String): SignedIn {
        val record = EnrollmentRecord.read(device.storage, pinName) ?: throw BioAuthException(Code.KEY_MISSING, "no PIN is set on this device")
        val challenge = authenticationChallenge(record.registrationId)
        val signature = keys.signWithPINKey(record.keyAlias, SignedMessage(Ceremony.AUTHENTICATION, configuration.relyingPartyId, record.registrationId, challenge.challenge).encoded())
        val body = JSONObject().put("challenge_id", challenge.id).put("signature", Base64Url.encode(signature)).put("pin", pin)
        configuration.sessionDurationMinutes?.let { body.put("session_duration_minutes", it) }
        return adopt(Endpoint.SIGN_IN_WITH_PIN, api.call(Endpoint.SIGN_IN_WITH_PIN, body = body))
    }

    /** Signs in with the PIN kept behind biometrics: **one prompt** releases it. */
    suspend fun signInWithStoredPIN(prompt: PromptText): SignedIn = signInWithPIN(String(vault.read(pinSecret, prompt), Charsets.UTF_8))

    // Step-up, password change, sessions

    /** Renews the session's primary authentication with the password. */
    suspend fun reauthenticate(password: String) {
        reauthenticate(Reauthentication.Password(password))
    }

    /** Renews the session's primary authentication with a biometric signature: **one prompt**. */
    suspend fun reauthenticateWithBiometrics(prompt: PromptText) {
        reauthenticate(Reauthentication.Biometrics(prompt))
    }

    /** Changes the password; every other session of the account ends. Needs a recent sign-in. */
    suspend fun changePassword(current: String, new: String, reauthentication: Reauthentication? = null) {
        withStepUp(reauthentication) {
            api.call(Endpoint.CHANGE_PASSWORD, body = JSONObject().put("current_password", current).put("new_password", new), token = requireToken())
        }
    }

    /** Ends every other session of the account. */
    suspend fun signOutEverywhereElse() {
        api.call(Endpoint.SIGN_OUT_ELSEWHERE, token = requireToken())
    }

    /** Signs out: the server ends the session, and the token kept behind biometrics is forgotten. */
    suspend fun signOut() {
        val token = sessionToken
        current = null
        vault.remove(sessionSecret)
        if (token != null) runCatching { api.call(Endpoint.SIGN_OUT, token = token) }
    }

    /**
     * Brings this device and the server into agreement (needs a session): a registration the
     * server no longer has loses its local key; a local key that is gone or invalidated loses its
     * server registration. Never prompts.
     */
    suspend fun reconcile(): ReconciliationAction? {
        val record = enrollment() ?: return null
        val listed = api.call(Endpoint.LIST_REGISTRATIONS, token = requireToken())
        val ids = api.read(Endpoint.LIST_REGISTRATIONS, listed) { json ->
            val array = json.getJSONArray("registrations")
            (0 until array.length()).map { array.getJSONObject(it).getString("id") }.toSet()
        }
        if (record.registrationId !in ids) {
            keys.delete(record.keyAlias)
            device.storage.write(enrollmentName, null)
            vault.remove(sessionSecret)
            return ReconciliationAction.LocalRegistrationRemoved(record.registrationId)
        }
        if (record.lost == null) {
            if (keys.contains(record.keyAlias)) return null
            device.storage.write(enrollmentName, record.copy(lost = "key_missing").json())
        }
        return revokeLostRegistration()
    }

    // Internals

    private fun requireToken(): String = sessionToken ?: throw BioAuthException(Code.NOT_SIGNED_IN)

    private fun enrollment(): EnrollmentRecord? = EnrollmentRecord.read(device.storage, enrollmentName)

    private suspend fun usableEnrollment(): EnrollmentRecord {
        val record = enrollment() ?: throw BioAuthException(Code.KEY_MISSING, "biometric sign-in is not enabled on this device")
        if (record.lost == "key_invalidated") throw BioAuthException(Code.KEY_INVALIDATED, "biometrics changed: sign in with the password")
        if (record.lost != null || !keys.contains(record.keyAlias)) throw BioAuthException(Code.KEY_MISSING, "the device key is gone")
        return record
    }

    private suspend fun authenticationChallenge(registrationId: String): ChallengeToSign {
        val body = try {
            api.call(Endpoint.CREATE_CHALLENGE, body = JSONObject().put("registration_id", registrationId))
        } catch (error: BioAuthException) {
            if (error.serverCode == "registration_not_found") forgetEnrollment(registrationId)
            throw error
        }
        return api.read(Endpoint.CREATE_CHALLENGE, body) { ChallengeToSign.authentication(it) }
    }

    /** Signs with the enrolled key; an invalidated key is recorded as lost (and its secrets dropped) before the error goes up. */
    private suspend fun signOrRecordLoss(record: EnrollmentRecord, message: ByteArray, prompt: PromptText): ByteArray = try {
        keys.signWithBiometrics(record.keyAlias, message, prompt)
    } catch (error: BioAuthException) {
        if (error.code == Code.KEY_INVALIDATED || error.code == Code.KEY_MISSING) {
            device.storage.write(enrollmentName, record.copy(lost = if (error.code == Code.KEY_INVALIDATED) "key_invalidated" else "key_missing").json())
            vault.remove(sessionSecret)
        }
        throw error
    }

    private suspend fun forgetEnrollment(registrationId: String) {
        val record = enrollment() ?: return
        if (record.registrationId != registrationId) return
        keys.delete(record.keyAlias)
        device.storage.write(enrollmentName, null)
        vault.remove(sessionSecret)
    }

    /** After a password (or other) sign-in: revokes a registration whose key was lost, then forgets it. */
    private suspend fun revokeLostRegistration(): ReconciliationAction? {
        val record = enrollment() ?: return null
        val lost = record.lost ?: return null
        val token = sessionToken ?: return null
        if (record.userId != user?.id) return null
        try {
            api.call(Endpoint.DELETE_REGISTRATION, record.registrationId, token = token)
        } catch (error: BioAuthException) {
            if (error.serverCode != "registration_not_found") return null
        }
        keys.delete(record.keyAlias)
        device.storage.write(enrollmentName, null)
        return ReconciliationAction.ServerRegistrationRevoked(record.registrationId, lost)
    }

    private fun adopt(endpoint: Endpoint, body: JSONObject): SignedIn {
        val response = api.read(endpoint, body) { SignInResponse.from(it) }
        current = Triple(response.sessionToken, response.session, response.user)
        return SignedIn(response.user, response.session)
    }

    private suspend fun reauthenticate(how: Reauthentication) {
        val body = when (how) {
            is Reauthentication.Password -> JSONObject().put("password", how.password)
            is Reauthentication.Biometrics -> {
                val record = usableEnrollment()
                val challenge = authenticationChallenge(record.registrationId)
                val message = SignedMessage(Ceremony.AUTHENTICATION, configuration.relyingPartyId, record.registrationId, challenge.challenge).encoded()
                JSONObject().put("challenge_id", challenge.id).put("signature", Base64Url.encode(signOrRecordLoss(record, message, how.prompt)))
            }
        }
        api.call(Endpoint.REAUTHENTICATE, body = body, token = requireToken())
    }

    /** Runs [call]; on `reauthentication_required` re-authenticates once as [how] says and runs it again. */
    private suspend fun <T> withStepUp(how: Reauthentication?, call: suspend () -> T): T = try {
        call()
    } catch (error: BioAuthException) {
        if (error.serverCode != "reauthentication_required" || how == null) throw error
        reauthenticate(how)
        call()
    }
}
