package com.bioauth.kit.client

import com.bioauth.kit.errors.BioAuthException
import com.bioauth.kit.protocol.AccessTokenResponse
import com.bioauth.kit.protocol.Endpoint
import com.bioauth.kit.protocol.ServerErrorCode
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.CoroutineStart
import kotlinx.coroutines.Deferred
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.SupervisorJob
import kotlinx.coroutines.async

/**
 * Access tokens for the app's backend: the cached one while it has a minute left, else one request
 * shared by every caller ([AccessTokenCache] decides). A request is a [Deferred] in the client's
 * own scope, so a caller that is cancelled leaves it answering the others. Never a prompt.
 */
internal class AccessTokenFlow(private val core: ClientCore) {
    private val scope = CoroutineScope(SupervisorJob() + Dispatchers.Unconfined)

    suspend fun token(): AccessToken {
        while (true) {
            val session = core.requireToken()
            val step = core.accessTokens.next(session, core.device.info.elapsedRealtimeMillis()) { number -> request(session, number) }
            val token = when (step) {
                is AccessTokenCache.Step.Use -> return step.token
                is AccessTokenCache.Step.Wait -> step.flight.await()
            }
            // Signed out or in anew while it was under way: decide again for the client's session now.
            if (core.current?.token == session) return token
        }
    }

    /** The request for [session]'s token, numbered [number]; its answer goes to the cache before callers see it. */
    private fun request(session: String, number: Int): Deferred<AccessToken> = scope.async(start = CoroutineStart.LAZY) {
        try {
            val answer = core.api.call(Endpoint.CREATE_ACCESS_TOKEN, token = session, read = AccessTokenResponse::from)
            core.accessTokens.received(answer, number, core.device.info.elapsedRealtimeMillis(), System.currentTimeMillis())
        } catch (error: Throwable) {
            core.accessTokens.failed(number)
            if (error is BioAuthException && error.serverCode == ServerErrorCode.INVALID_SESSION) core.sessionEnded(session)
            throw error
        }
    }
}
