package com.bioauth.kit.client

import com.bioauth.kit.errors.BioAuthException
import com.bioauth.kit.errors.BioAuthException.Code
import com.bioauth.kit.protocol.Base64Url
import com.bioauth.kit.protocol.Ceremony
import com.bioauth.kit.protocol.Endpoint
import com.bioauth.kit.protocol.PINSignInRequest
import com.bioauth.kit.protocol.RegistrationResponse
import com.bioauth.kit.protocol.RegistrationStartResponse
import com.bioauth.kit.protocol.ServerErrorCode
import com.bioauth.kit.protocol.SetPINRequest
import com.bioauth.kit.protocol.SignInResponse
import com.bioauth.kit.protocol.VerifyRegistrationRequest

/** The PIN: knowledge (the PIN, checked by the server) and possession (this device's PIN key). */
internal class PinFlows(private val core: ClientCore, private val stepUp: StepUp, private val reconciliation: Reconciliation) {
    suspend fun set(pin: String, prompt: PromptText, keepBehindBiometrics: Boolean, reauthentication: Reauthentication?): Boolean {
        val user = core.requireUser()
        // The prompt first: a cancel there changes nothing, here or on the server.
        val keep = keepBehindBiometrics && Availability.whyNot(core.device, core.keys.authenticators) == null
        val sealed = if (keep) core.vault.seal(pin.toByteArray(Charsets.UTF_8), prompt) else null
        val previous = core.records.pin
        val alias = core.newAlias("pin-key")
        val attestationChallenge = core.evidence.challenge()
        val made = core.evidence.make(attestationChallenge) { challenge -> core.keys.createPinKey(alias, challenge) }
        val publicKey = made.publicKey
        try {
            val evidence = core.evidence.of(alias, made.attestedWith)
            val start = stepUp.around(reauthentication) {
                core.api.call(
                    Endpoint.SET_PIN,
                    body = SetPINRequest(pin, "ES256", Base64Url.encode(publicKey), evidence),
                    token = core.requireToken(),
                    read = RegistrationStartResponse::from,
                )
            }
            val signature = core.keys.signWithPinKey(alias, core.message(Ceremony.REGISTRATION, start.registrationId, start.challengeBytes))
            core.api.call(
                Endpoint.VERIFY_REGISTRATION,
                start.registrationId,
                VerifyRegistrationRequest(Base64Url.encode(signature)),
                core.requireToken(),
                RegistrationResponse::from,
            )
            core.records.savePin(PinRecord(user.id, start.registrationId, alias))
        } catch (error: Throwable) {
            core.keys.delete(alias)
            throw error
        }
        // The server revoked the previous PIN key when this one was verified.
        previous?.let { core.keys.delete(it.keyAlias) }
        if (sealed != null) core.vault.put(SecretVault.Name.PIN, sealed) else core.vault.remove(SecretVault.Name.PIN)
        return sealed != null
    }

    val isSet: Boolean get() = core.records.pin != null

    /** A fresh challenge's id and the PIN key's signature over it. */
    class Signed(val challengeId: String, val signature: ByteArray)

    /**
     * Takes a fresh challenge for this device's PIN key and signs [message] (the registration id
     * and the challenge's bytes give it) with the key: no prompt. A PIN set elsewhere or revoked,
     * or a key gone, is forgotten here (`KEY_MISSING`).
     */
    suspend fun signChallenge(message: (registrationId: String, challenge: ByteArray) -> ByteArray): Signed {
        val record = core.records.pin ?: throw BioAuthException(Code.KEY_MISSING, "no PIN is set on this device")
        val challenge = try {
            core.challenge(record.registrationId)
        } catch (error: BioAuthException) {
            if (error.serverCode != ServerErrorCode.REGISTRATION_NOT_FOUND) throw error
            reconciliation.removeLocalPIN()
            throw BioAuthException(Code.KEY_MISSING, "the PIN was set on another device or revoked", error.rejection, error)
        }
        val signature = try {
            core.keys.signWithPinKey(record.keyAlias, message(record.registrationId, challenge.challengeBytes))
        } catch (error: BioAuthException) {
            if (error.code == Code.KEY_MISSING) reconciliation.removeLocalPIN()
            throw error
        }
        return Signed(challenge.challengeId, signature)
    }

    suspend fun signIn(pin: String): SignedIn {
        val signed = signChallenge { registrationId, challenge -> core.message(Ceremony.AUTHENTICATION, registrationId, challenge) }
        val body = PINSignInRequest(signed.challengeId, Base64Url.encode(signed.signature), pin, core.configuration.sessionDurationMinutes)
        val signedIn = core.adopt(core.api.call(Endpoint.SIGN_IN_WITH_PIN, body = body, read = SignInResponse::from))
        return signedIn.copy(reconciliation = reconciliation.revokeLostRegistration())
    }

    suspend fun signInWithStored(prompt: PromptText): SignedIn {
        if (core.records.pin == null) throw BioAuthException(Code.KEY_MISSING, "no PIN is set on this device")
        return signIn(String(core.vault.read(SecretVault.Name.PIN, prompt), Charsets.UTF_8))
    }
}
