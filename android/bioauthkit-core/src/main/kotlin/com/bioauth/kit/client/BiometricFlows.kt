package com.bioauth.kit.client

import com.bioauth.kit.errors.BioAuthException
import com.bioauth.kit.protocol.Base64Url
import com.bioauth.kit.protocol.BiometricSignInRequest
import com.bioauth.kit.protocol.Ceremony
import com.bioauth.kit.protocol.Endpoint
import com.bioauth.kit.protocol.Registration
import com.bioauth.kit.protocol.RegistrationResponse
import com.bioauth.kit.protocol.RegistrationStartResponse
import com.bioauth.kit.protocol.ServerErrorCode
import com.bioauth.kit.protocol.SignInResponse
import com.bioauth.kit.protocol.StartRegistrationRequest
import com.bioauth.kit.protocol.VerifyRegistrationRequest

/** Biometric sign-in: enabling it, signing in, turning it off. */
internal class BiometricFlows(private val core: ClientCore, private val enrolled: EnrolledKey, private val stepUp: StepUp) {
    suspend fun enable(label: String?, prompt: PromptText, reauthentication: Reauthentication?): Registration {
        val user = core.requireUser()
        val previous = core.records.enrollment
        val how = reauthentication
            ?: previous?.takeIf { it.lost == null && it.userId == user.id }?.let { Reauthentication.Biometrics(prompt) }
        val alias = core.newAlias("device-key")
        // Told apart before the server is asked for anything (the key would not be made).
        Availability.requireUsable(core.device, core.keys.authenticators)
        val attestationChallenge = core.evidence.challenge()
        val made = core.evidence.make(attestationChallenge) { challenge -> core.keys.createBiometricKey(alias, challenge) }
        val publicKey = made.publicKey
        var registrationId: String? = null
        try {
            val evidence = core.evidence.of(alias, made.attestedWith)
            val start = stepUp.around(how) {
                core.api.call(
                    Endpoint.START_REGISTRATION,
                    body = StartRegistrationRequest("ES256", Base64Url.encode(publicKey), label, evidence),
                    token = core.requireToken(),
                    read = RegistrationStartResponse::from,
                )
            }
            registrationId = start.registrationId
            val signature = core.keys.signWithBiometrics(
                alias,
                core.message(Ceremony.REGISTRATION, start.registrationId, start.challengeBytes),
                prompt,
            )
            val registration = core.api.call(
                Endpoint.VERIFY_REGISTRATION,
                start.registrationId,
                VerifyRegistrationRequest(Base64Url.encode(signature)),
                core.requireToken(),
                RegistrationResponse::from,
            ).registration
            core.records.saveEnrollment(EnrollmentRecord(user.id, registration.id, alias))
            if (previous != null) {
                // Replaced: the old registration goes on the server (this session is spared), its key here.
                try {
                    core.api.send(Endpoint.DELETE_REGISTRATION, previous.registrationId, token = core.requireToken())
                } catch (_: BioAuthException) {
                    // Revoked already, or reconcile() catches it later.
                }
                core.keys.delete(previous.keyAlias)
            }
            return registration
        } catch (error: Throwable) {
            // No orphan on either side; the previous registration is untouched.
            core.keys.delete(alias)
            registrationId?.let { id ->
                try {
                    core.api.send(Endpoint.DELETE_REGISTRATION, id, token = core.current?.token)
                } catch (_: BioAuthException) {
                    // A pending registration the server deletes on its own.
                }
            }
            throw error
        }
    }

    suspend fun isEnabled(): Boolean {
        val record = core.records.enrollment ?: return false
        return record.lost == null && enrolled.probe(record)
    }

    suspend fun signIn(prompt: PromptText): SignedIn {
        val record = enrolled.usable()
        val challenge = try {
            core.challenge(record.registrationId)
        } catch (error: BioAuthException) {
            if (error.serverCode == ServerErrorCode.REGISTRATION_NOT_FOUND) enrolled.removeLocal()
            throw error
        }
        val signature = enrolled.sign(record, core.message(Ceremony.AUTHENTICATION, record.registrationId, challenge.challengeBytes), prompt)
        val body = BiometricSignInRequest(challenge.challengeId, Base64Url.encode(signature), core.configuration.sessionDurationMinutes)
        return core.adopt(core.api.call(Endpoint.SIGN_IN_WITH_BIOMETRIC, body = body, read = SignInResponse::from))
    }

    suspend fun disable() {
        val token = core.requireToken()
        core.records.enrollment?.let { record ->
            try {
                core.api.send(Endpoint.DELETE_REGISTRATION, record.registrationId, token = token)
            } catch (error: BioAuthException) {
                if (error.serverCode != ServerErrorCode.REGISTRATION_NOT_FOUND) throw error
            }
        }
        enrolled.removeLocal()
    }
}
