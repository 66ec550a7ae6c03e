package com.bioauth.kit.client

import com.bioauth.kit.protocol.AccessTokenResponse
import kotlinx.coroutines.Deferred

/**
 * The decisions about the access token a client hands out: whether the cached one is fresh
 * enough, whether a request for one is already under way, and what an answer or a change of
 * session does to the cache. Each decision is made under one lock, so two callers never both
 * start a request. [AccessTokenFlow] runs the requests.
 *
 * Times are [com.bioauth.kit.device.DeviceInfo.elapsedRealtimeMillis]: a deadline is when the
 * answer arrived plus `expires_in`, never the server's `expires_at` read against the phone's date.
 */
internal class AccessTokenCache {
    /** What a caller does next: use a token, or wait for the request under way. */
    sealed interface Step {
        /** Use this token. */
        class Use(val token: AccessToken) : Step

        /** Wait for this request (the caller's own, just started, or one already under way). */
        class Wait(val flight: Deferred<AccessToken>) : Step
    }

    private class Cached(val token: AccessToken, val deadline: Long)

    private class Flight(val number: Int, val answer: Deferred<AccessToken>)

    private var session: String? = null
    private var cached: Cached? = null
    private var flight: Flight? = null
    private var flights = 0

    /**
     * What a caller signed in with [session] does at [now]: the cached token while it has
     * [MINIMUM_VALIDITY_MILLIS] left, else the request under way, else a new one made by
     * [request] with its number. A token or request of another session is dropped first.
     */
    @Synchronized
    fun next(session: String, now: Long, request: (number: Int) -> Deferred<AccessToken>): Step {
        if (session != this.session) {
            drop()
            this.session = session
        }
        cached?.takeIf { it.deadline - now >= MINIMUM_VALIDITY_MILLIS }?.let { return Step.Use(it.token) }
        val current = flight ?: run {
            flights += 1
            Flight(flights, request(flights)).also { flight = it }
        }
        return Step.Wait(current.answer)
    }

    /**
     * The answer to request [number], received at [now] (and at [epochMillis] by the phone's
     * date): the token its callers get. Kept only when nothing dropped the cache since the request
     * started.
     */
    @Synchronized
    fun received(answer: AccessTokenResponse, number: Int, now: Long, epochMillis: Long): AccessToken {
        val lifetime = answer.expiresIn * 1000L
        val token = AccessToken(answer.accessToken, epochMillis + lifetime)
        if (flight?.number == number) {
            cached = Cached(token, now + lifetime)
            flight = null
        }
        return token
    }

    /** Request [number] failed: the next caller starts another. */
    @Synchronized
    fun failed(number: Int) {
        if (flight?.number == number) flight = null
    }

    /**
     * Forgets the token and the request under way (a request already sent still answers its
     * callers, but its token is not kept): whenever the client's session changes.
     */
    @Synchronized
    fun drop() {
        session = null
        cached = null
        flight = null
    }

    companion object {
        /** A token is handed out only while at least this much of it is left. */
        const val MINIMUM_VALIDITY_MILLIS: Long = 60_000
    }
}
