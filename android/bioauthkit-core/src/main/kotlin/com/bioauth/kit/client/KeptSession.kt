package com.bioauth.kit.client

import com.bioauth.kit.errors.BioAuthException
import com.bioauth.kit.protocol.CurrentSessionResponse
import com.bioauth.kit.protocol.Endpoint
import com.bioauth.kit.protocol.ServerErrorCode

/** The session token kept behind biometrics across launches: one prompt releases it. */
internal class KeptSession(private val core: ClientCore) {
    suspend fun keep(prompt: PromptText) {
        core.vault.store(SecretVault.Name.SESSION, core.requireToken().toByteArray(Charsets.UTF_8), prompt)
    }

    suspend fun restore(prompt: PromptText): SignedIn {
        val token = String(core.vault.read(SecretVault.Name.SESSION, prompt), Charsets.UTF_8)
        val answer = try {
            core.api.call(Endpoint.GET_CURRENT_SESSION, token = token, read = CurrentSessionResponse::from)
        } catch (error: BioAuthException) {
            if (error.serverCode == ServerErrorCode.INVALID_SESSION) core.vault.remove(SecretVault.Name.SESSION)
            throw error
        }
        core.current = ClientCore.Current(token, answer.session, answer.user)
        return SignedIn(answer.user, answer.session)
    }
}
