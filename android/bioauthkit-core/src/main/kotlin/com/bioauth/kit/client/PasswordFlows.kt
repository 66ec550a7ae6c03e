package com.bioauth.kit.client

import com.bioauth.kit.errors.BioAuthException
import com.bioauth.kit.protocol.ChangePasswordRequest
import com.bioauth.kit.protocol.CreateUserRequest
import com.bioauth.kit.protocol.Endpoint
import com.bioauth.kit.protocol.PasswordSignInRequest
import com.bioauth.kit.protocol.ServerErrorCode
import com.bioauth.kit.protocol.SignInResponse
import com.bioauth.kit.protocol.User
import com.bioauth.kit.protocol.UserResponse

/** Accounts, passwords and sessions. */
internal class PasswordFlows(private val core: ClientCore, private val stepUp: StepUp, private val reconciliation: Reconciliation) {
    suspend fun signUp(username: String, password: String): User =
        core.api.call(Endpoint.CREATE_USER, body = CreateUserRequest(username, password), read = UserResponse::from).user

    suspend fun signIn(username: String, password: String): SignedIn {
        val body = PasswordSignInRequest(username, password, core.configuration.sessionDurationMinutes)
        val signedIn = core.adopt(core.api.call(Endpoint.SIGN_IN_WITH_PASSWORD, body = body, read = SignInResponse::from))
        return signedIn.copy(reconciliation = reconciliation.revokeLostRegistration())
    }

    suspend fun changePassword(current: String, new: String, reauthentication: Reauthentication?) {
        stepUp.around(reauthentication) {
            core.api.send(Endpoint.CHANGE_PASSWORD, body = ChangePasswordRequest(current, new), token = core.requireToken())
        }
    }

    suspend fun signOutEverywhereElse() {
        core.api.send(Endpoint.SIGN_OUT_ELSEWHERE, token = core.requireToken())
    }

    suspend fun signOut() {
        val token = core.current?.token
        core.current = null
        core.vault.remove(SecretVault.Name.SESSION)
        if (token == null) return
        try {
            core.api.send(Endpoint.SIGN_OUT, token = token)
        } catch (error: BioAuthException) {
            if (error.serverCode != ServerErrorCode.INVALID_SESSION) throw error
        }
    }
}
