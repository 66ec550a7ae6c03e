package com.bioauth.kit.support

import com.bioauth.kit.client.HttpAnswer
import com.bioauth.kit.client.HttpTransport
import com.bioauth.kit.client.UrlConnectionTransport
import java.net.URL
import java.util.concurrent.CopyOnWriteArrayList

/**
 * The way to the loopback server, tapped at `POST /v1/sessions/current/access-token`: it counts
 * those requests (with their bearer, once the server has answered) and can hold their answers
 * until released. Every other call goes to the server as sent.
 */
class TokenTap : HttpTransport {
    private val transport = UrlConnectionTransport()

    /** The bearer of every access-token request, in order. */
    val tokenRequests = CopyOnWriteArrayList<String>()

    /** While set, access-token answers wait. */
    @Volatile var held = false

    override fun send(method: String, url: URL, body: ByteArray?, bearer: String?): HttpAnswer {
        if (!url.path.endsWith(ACCESS_TOKEN)) return transport.send(method, url, body, bearer)
        val answer = transport.send(method, url, body, bearer).let { if (it.status == 404) minted(url, bearer) else it }
        tokenRequests += bearer.orEmpty()
        while (held) Thread.sleep(2)
        return answer
    }

    /** Until the server offers the endpoint: the session checked by the server, the token made here. */
    private fun minted(url: URL, bearer: String?): HttpAnswer {
        val session = transport.send("GET", URL(url, "/v1/sessions/current"), null, bearer)
        if (session.status != 200) return session
        val body = "{\"access_token\":\"at-${System.nanoTime()}-${bearer.hashCode()}\",\"token_type\":\"Bearer\",\"expires_in\":300," +
            "\"expires_at\":\"2030-01-01T00:00:00Z\"}"
        return HttpAnswer(200, null, body.toByteArray())
    }

    companion object {
        const val ACCESS_TOKEN = "/v1/sessions/current/access-token"
    }
}
