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
        val answer = transport.send(method, url, body, bearer)
        tokenRequests += bearer.orEmpty()
        while (held) Thread.sleep(2)
        return answer
    }

    companion object {
        const val ACCESS_TOKEN = "/v1/sessions/current/access-token"
    }
}
