package com.bioauth.kit.client

import com.bioauth.kit.errors.BioAuthException
import com.bioauth.kit.errors.BioAuthException.Code
import com.bioauth.kit.protocol.Base64Url
import com.bioauth.kit.protocol.Ceremony
import com.bioauth.kit.protocol.CurrentSessionResponse
import com.bioauth.kit.protocol.Endpoint
import com.bioauth.kit.protocol.ReauthenticateRequest
import com.bioauth.kit.protocol.ServerErrorCode

/** Re-authentication: renewing the session's proof with the password or a biometric signature, and retrying a refused call. */
internal class StepUp(private val core: ClientCore, private val enrolled: EnrolledKey) {
    /** With the password. */
    suspend fun withPassword(password: String) = renew(ReauthenticateRequest.Password(password))

    /** With this device's biometric key over a fresh challenge: one prompt. */
    suspend fun withBiometrics(prompt: PromptText) {
        core.requireToken()
        val record = enrolled.usable()
        if (record.userId != core.current?.user?.id) throw BioAuthException(Code.KEY_MISSING, "this device's key belongs to another user")
        val challenge = core.challenge(record.registrationId)
        val signature = enrolled.sign(record, core.message(Ceremony.AUTHENTICATION, record.registrationId, challenge.challengeBytes), prompt)
        renew(ReauthenticateRequest.Signature(challenge.challengeId, Base64Url.encode(signature)))
    }

    /** Runs [call]; on `reauthentication_required` re-authenticates once as [how] says and runs it again. */
    suspend fun <T> around(how: Reauthentication?, call: suspend () -> T): T = try {
        call()
    } catch (error: BioAuthException) {
        if (error.serverCode != ServerErrorCode.REAUTHENTICATION_REQUIRED || how == null) throw error
        reauthenticate(how)
        call()
    }

    private suspend fun reauthenticate(how: Reauthentication) {
        when (how) {
            is Reauthentication.Biometrics -> withBiometrics(how.prompt)
            is Reauthentication.Password -> withPassword(how.ask() ?: throw BioAuthException(Code.USER_CANCELED, "no password given"))
            is Reauthentication.BiometricsOrPassword -> {
                val record = core.records.enrollment
                val biometrics = record != null && record.lost == null && record.userId == core.current?.user?.id && enrolled.probe(record)
                reauthenticate(if (biometrics) Reauthentication.Biometrics(how.prompt) else Reauthentication.Password(how.ask))
            }
        }
    }

    private suspend fun renew(body: ReauthenticateRequest) {
        val answer = core.api.call(Endpoint.REAUTHENTICATE, body = body, token = core.requireToken(), read = CurrentSessionResponse::from)
        core.current?.let { core.current = ClientCore.Current(it.token, answer.session, answer.user) }
    }
}
